// Executing a vs.1.x program on one vertex: the reference interpreter (the golden semantics,
// simple and obviously right) and the types it shares with the fast path.
#pragma once

#include "model/vs/vs_isa.h"

#include <array>
#include <cstdint>
#include <vector>

namespace vpsim::vs {

using Vec4 = std::array<float, 4>;

// The outputs of one vertex as they leave the vertex stage (oD0/oD1 saturated, oFog clamped).
struct VertexOutputs {
    Vec4 pos{};
    Vec4 d0{}, d1{};
    float fog = 0, pts = 0;
    std::array<Vec4, kNumTexcoords> t{};
};
// Bit-exact comparison (every float compared as its bits).
bool same_bits(const VertexOutputs& a, const VertexOutputs& b);

// Constant memory: profile.const_count registers.
using Constants = std::vector<Vec4>;
// Bit-exact comparison of two constant memories (same size, every float as its bits: a NaN
// equals the same NaN, +0 differs from -0), as the driver tracks what it has written.
bool same_bits(const Constants& a, const Constants& b);

// Executes a validated program. `inputs` are v0..v15.
VertexOutputs execute_reference(const Program& p, const Profile& profile, const std::array<Vec4, kNumInputs>& inputs,
                                const Constants& constants);

// Single operations, exactly as the spec's table (shared by the interpreter and the tests).
namespace ops {
float rcp(float f, const Profile& p);
float rsq(float f, const Profile& p);
float exp2_full(float f);
float log2_full(float f);
Vec4 expp(float v);
Vec4 logp(float f, const Profile& p);
Vec4 lit(const Vec4& s);
// lit's power clamp, the DX8 reference constant (bits 0x42FFFE01, 127.99610138); NaN stays NaN.
inline constexpr float kLitMaxPower = 127.9961f;
inline float clamp_lit_power(float w) {
    return w < -kLitMaxPower ? -kLitMaxPower : (w > kLitMaxPower ? kLitMaxPower : w);
}
Vec4 dst(const Vec4& s0, const Vec4& s1);
float dp3(const Vec4& a, const Vec4& b);
float dp4(const Vec4& a, const Vec4& b);
float frc(float f);
int32_t a0_from(float f, const Profile& p);
}  // namespace ops

}  // namespace vpsim::vs

// CreateVertexShader validation of a decoded vs.1.x program (docs/spec/vs-isa.md,
// "Validation"), and what the program reads (for declaration rules 16-17).
#pragma once

#include "model/vs/vs_isa.h"

#include <set>
#include <string>
#include <vector>

namespace vpsim::vs {

enum class Severity : uint8_t { Warning, Error };

// Stable rule ids (docs/vs-isa.md lists them):
//   V1 slots          more than 128 instruction slots
//   V2 register-range register number out of range (constants: the profile's const_count)
//   V3 register-use   a register type where it may not stand (e.g. writing v#, reading oPos, a0 as a source)
//   V4 read-ports     more than one distinct constant or input register in one instruction
//   V5 temp-uninit    a temp component read before it is written (warning in the d3d8 profile,
//                     error with Profile::strict_temps)
//   V6 a0-uninit      relative addressing before a0.x is written
//   V7 a0-vs10        a0 or relative addressing in a vs.1.0 shader
//   V8 opos-unwritten oPos not written in all four components
//   V9 write-mask     a mask the instruction or register does not allow (frc, m-instructions, oFog, oPts, a0, empty);
//                     an m-instruction's mask wider than it computes is a warning unless Profile::strict_masks
//   V10 matrix-form   m-instruction with a source swizzle, or dst equal to src0
//   V11 relative      relative addressing on a non-constant source
//   V12 coissue       COISSUE bit set (d3d8 profile)
//   V13 scalar-form   scalar op without a replicate swizzle, or rcp/rsq/exp/log with a multi-component mask
//                     (warning: D3D8 accepts it)
struct Diagnostic {
    Severity severity = Severity::Error;
    std::string rule;         // "V4"
    int instruction = -1;     // 0-based instruction number, -1 for the whole program
    uint32_t token_index = 0; // index of the instruction token
    std::string message;
};
std::string to_string(const Diagnostic& d);
const char* rule_name(const std::string& rule);  // "read-ports"

struct ShaderInfo {
    uint32_t input_reads = 0;           // bit r: v[r] read
    std::set<uint32_t> const_reads;     // constant registers read directly (relative: not listed)
    bool relative = false;              // reads c[a0.x + n]
    uint32_t outputs_written = 0;       // see output_bit()
    int slots = 0;
};
// Bits of ShaderInfo::outputs_written.
inline constexpr uint32_t kOutPos = 1u << 0, kOutFog = 1u << 1, kOutPts = 1u << 2, kOutD0 = 1u << 3,
                          kOutD1 = 1u << 4, kOutT0 = 1u << 5;  // oT# = kOutT0 << #

struct Validation {
    bool valid = false;
    std::vector<Diagnostic> diagnostics;
    ShaderInfo info;
};

Validation validate(const Program& p, const Profile& profile = Profile::d3d8());

// Register components (bit set, x = bit 0) of source `s` of `ins` that the operation reads:
// the lanes the operation uses (given the written mask), mapped through the source's swizzle.
// Used by validation, the random program generator and the timing model.
uint32_t components_read(const Instruction& ins, int s, const Profile& profile);

}  // namespace vpsim::vs

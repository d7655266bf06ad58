// The calls of a capture (docs/capture.md): op names, the argument layout rule of each op, and
// a bounds-checked little-endian reader of a call's arguments. Shared by the reader, the
// converter and `vpsim capture info`.
#pragma once

#include "model/capture/capture_format.h"

#include <cstdint>
#include <stdexcept>
#include <string>

namespace vpsim::capture {

// "SetRenderState", ... ; "" for a number that is no op.
const char* op_name(uint32_t op);

// Checks that `n` argument bytes at `p` fit op's layout (its fixed part and the counts it
// carries). Returns "" when they do, else the rule broken ("SetLight takes 108 argument bytes,
// found 12"). A capture of `version` 1 knows ops 1..24 only.
std::string check_arguments(uint32_t op, const uint8_t* p, uint64_t n, uint32_t version = VPSIM_CAPTURE_VERSION);

// Reads a call's arguments in order; reading past the end throws std::out_of_range (the
// reader's check_arguments() makes that a bug, not bad input).
class Args {
public:
    Args(const uint8_t* p, uint64_t n) : p_(p), n_(n) {}
    uint32_t u32();
    float f32();
    const uint8_t* bytes(uint64_t n);  // n bytes, returned in place
    uint64_t left() const { return n_ - pos_; }

private:
    const uint8_t* p_;
    uint64_t n_, pos_ = 0;
};

// Vertices a draw of `count` primitives of D3DPRIMITIVETYPE `type` references (0 for an unknown type).
uint64_t primitive_vertices(uint32_t type, uint64_t count);

// D3DCREATE_*_VERTEXPROCESSING.
inline constexpr uint32_t kCreateSoftwareVp = 0x20, kCreateHardwareVp = 0x40, kCreateMixedVp = 0x80;
// D3DFMT_INDEX16 / INDEX32.
inline constexpr uint32_t kFmtIndex16 = 101, kFmtIndex32 = 102;
// D3DSTATEBLOCKTYPE.
inline constexpr uint32_t kSbtAll = 1, kSbtPixelState = 2, kSbtVertexState = 3;
// D3DPOOL_DEFAULT.
inline constexpr uint32_t kPoolDefault = 0;

}  // namespace vpsim::capture

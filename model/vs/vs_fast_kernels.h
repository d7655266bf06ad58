// The arithmetic kernels of the fast path (vs_fast.h, docs/fast-path.md): one plain loop per
// micro-operation over the vertices of a batch, compiled once per instruction set (FastIsa).
#pragma once

#include "model/vs/vs_fast.h"

#include <atomic>
#include <cstddef>
#include <cstdint>

// Everything a kernel calls is inlined into it (see vs_fast_kernels.cpp).
#define VPSIM_INLINE __attribute__((always_inline)) inline

namespace vpsim::vs::fast {

inline constexpr size_t B = kFastBatch;

struct Ctx {
    float* slots = nullptr;  // num_slots * B
    int32_t* a0 = nullptr;   // B
    const float* uni = nullptr;
    const Constants* consts = nullptr;
    int64_t const_limit = 0;  // relative reads in 0 .. const_limit-1 hit memory
    const Profile* profile = nullptr;

    float* slot(uint16_t s) const { return static_cast<float*>(__builtin_assume_aligned(slots + size_t(s) * B, 64)); }
};

// The kernels of one instruction set: run_op(m, ctx, n) computes micro-operation m for vertices 0..n-1.
using RunOp = void (*)(const FastShader::MicroOp&, Ctx&, size_t);
RunOp run_op_for(FastIsa isa);

bool cpu_has_avx2();
// The process-wide setting (VPSIM_FAST_ISA=baseline at start-up forces Baseline).
std::atomic<FastIsa>& isa_setting();

}  // namespace vpsim::vs::fast

// The fast path's driver (vs_fast.h): the working storage of one call and the batch loop that
// fetches, shades and stores.
#pragma once

#include "model/vs/vs_fast_fetch.h"
#include "model/vs/vs_fast_kernels.h"

#include <algorithm>
#include <memory>
#include <vector>

namespace vpsim::vs::fast {

// Working storage of one call: the SoA slots, a0, the resolved uniforms.
struct Work {
    std::unique_ptr<float[]> mem;
    std::unique_ptr<int32_t[]> a0;
    std::vector<float> uni;
    Ctx ctx;
    RunOp run_op = run_op_for(isa_setting().load(std::memory_order_relaxed));  // the kernels of this call

    Work(const FastShader& fs, const Constants& constants);
    void shade(const FastShader& fs, size_t n) {
        for (const FastShader::MicroOp& m : fs.ops) run_op(m, ctx, n);
    }
};

inline void fill(float* d, float v, size_t n) {
    for (size_t i = 0; i < n; ++i) d[i] = v;
}

// Shades vertices [0, count) of a source: fetch(b0, n) fills the input slots, store(b0, n) writes.
template <class Fetch, class Store>
void run_batches(const FastShader& fs, Work& w, size_t count, Fetch&& fetch, Store&& store) {
    for (size_t b0 = 0; b0 < count; b0 += B) {
        const size_t n = std::min(B, count - b0);
        fetch(b0, n);
        w.shade(fs, n);
        store(b0, n);
    }
}

template <class Store>
void fetch_and_shade(const FastShader& fs, const decl::Declaration& d, const Streams& streams,
                     const Constants& constants, uint32_t first, uint32_t count, Store&& store) {
    if (count == 0) return;
    Work w(fs, constants);
    const FetchPlan plan = plan_fetch(fs, w.ctx, d, streams, first, count);
    for (const auto& [slot, v] : plan.constants) fill(slot, v, B);
    const size_t valid = size_t(plan.valid_end - first);
    run_batches(
        fs, w, valid,
        [&](size_t b0, size_t n) {
            for (const FetchElement& e : plan.elements) fetch_element(e, uint64_t(first) + b0, n);
        },
        [&](size_t b0, size_t n) { store(w.ctx, b0, n); });
    if (valid < count) {
        (void)fetch_vertex(d, streams, uint32_t(first + valid));  // throws the FetchError for it
        throw FetchError(0, int64_t(first) + int64_t(valid), "cannot be fetched");  // not reached
    }
}

}  // namespace vpsim::vs::fast

namespace vpsim::vs::fast {

// The register-resident transform (docs/fast-path.md, "Fused transform"): when the whole program
// is one MATVEC of 4 rows whose source is a FLOAT2/3/4 input (and constant components) and whose
// 4 results are the only output register, vertices are fetched, transformed and stored 4 at a
// time in registers, with no slot traffic. Writes the records of vertices first .. first+k-1 for
// a k it returns (a multiple of 4, possibly 0: the program or the declaration does not qualify);
// the caller shades the rest with the batch loop. Ordinary stores: interleaved with the loads and
// the arithmetic they measured faster than non-temporal ones (docs/fast-path.md).
size_t fused_transform(const FastShader& fs, const decl::Declaration& d, const Streams& streams,
                       const Constants& constants, uint32_t first, uint32_t count, float* out);

}  // namespace vpsim::vs::fast

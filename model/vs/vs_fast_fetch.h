// The fast path's fused vertex fetch (vs_fast.h): the declaration's elements converted from the
// bound streams straight into the SoA input slots, exactly as fetch_vertex (vs_fetch.h) expands them.
#pragma once

#include "model/vs/vs_fast_kernels.h"

#include <utility>
#include <vector>

namespace vpsim::vs::fast {

struct FetchElement {
    const uint8_t* data = nullptr;  // stream base + offset
    uint32_t stride = 0;
    uint32_t type = 0;
    std::array<float*, 4> dst{};    // slots to fill per component (nullptr: not needed)
    uint64_t wide_end = 0;          // vertices below this one can be read with 16-byte loads
};

// How the declaration fills each input register: the last Element or Tess event for it wins
// (as fetch_vertex), no event = (0,0,0,0).
struct FetchPlan {
    std::vector<FetchElement> elements;
    std::vector<std::pair<float*, float>> constants;  // slots filled once per call
    uint64_t valid_end = 0;   // vertices first .. valid_end-1 can be fetched
};

// The plan for vertices first .. first+count-1 into ctx's slots (every element event is checked,
// read by the shader or not, as fetch_vertex does).
FetchPlan plan_fetch(const FastShader& fs, const Ctx& ctx, const decl::Declaration& d, const Streams& streams,
                     uint32_t first, uint32_t count);

// Element e of vertices first .. first+n-1 into its slots 0..n-1.
void fetch_element(const FetchElement& e, uint64_t first, size_t n);

}  // namespace vpsim::vs::fast

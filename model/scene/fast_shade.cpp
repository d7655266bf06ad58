#include "model/scene/fast_shade.h"

#include "model/vs/vs_fast.h"

#include <map>
#include <vector>

namespace vpsim::scene {

ShadeFn fast_shade() {
    auto cache = std::make_shared<std::map<const vs::CreatedShader*, vs::FastShader>>();
    return [cache](const ShadeState& st, const uint32_t* idx, size_t n, vs::VertexOutputs* out) {
        auto it = cache->find(st.shader);
        if (it == cache->end()) it = cache->emplace(st.shader, vs::compile_fast(*st.shader->program, *st.profile)).first;
        if (st.generated) {
            // Tessellated vertices: their registers are given, nothing to fetch.
            std::vector<vs::Vec4> in(n * vs::kNumInputs);
            for (size_t k = 0; k < n; ++k)
                std::copy((*st.generated)[idx[k]].begin(), (*st.generated)[idx[k]].end(), in.begin() + long(k * vs::kNumInputs));
            vs::run_fast(it->second, *st.constants, in.data(), out, n);
            return;
        }
        size_t k = 0;
        while (k < n) {
            size_t e = k + 1;
            while (e < n && idx[e] == idx[e - 1] + 1) ++e;
            vs::run_fast_fetch(it->second, st.shader->decl, *st.streams, *st.constants, idx[k], uint32_t(e - k), out + k);
            k = e;
        }
    };
}

}  // namespace vpsim::scene

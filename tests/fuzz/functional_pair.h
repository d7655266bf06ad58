// The property the scene and ff harnesses share: a loaded scene run with the reference shader and
// with the fast path fails with the same SceneError (naming the file and a command) or gives the
// same draws, bit for bit, one vertex per reference. N-patches and patches amplify a draw: at most
// 4096 generated vertices each (the profile's T13 limit, a SceneError beyond), so that an input's
// work stays bounded.
#pragma once

#include "fuzz_util.h"

#include "model/scene/fast_shade.h"
#include "model/scene/functional.h"
#include "model/scene/scene.h"

#include <string>

namespace vpsim::fuzz {

inline void same_results(const scene::FunctionalResult& a, const scene::FunctionalResult& b) {
    FUZZ_CHECK(a.draws.size() == b.draws.size(), "%zu vs %zu draws", a.draws.size(), b.draws.size());
    for (size_t d = 0; d < a.draws.size(); ++d) {
        const scene::DrawResult &x = a.draws[d], &y = b.draws[d];
        FUZZ_CHECK(x.indices == y.indices && x.vertices.size() == y.vertices.size() &&
                       x.unique_vertices == y.unique_vertices && x.primitives == y.primitives,
                   "draw %zu (%s): shapes differ", d, x.pointer.c_str());
        for (size_t v = 0; v < x.vertices.size(); ++v)
            FUZZ_CHECK(vs::same_bits(x.vertices[v], y.vertices[v]), "draw %zu (%s) vertex %zu: fast path differs",
                       d, x.pointer.c_str(), v);
        FUZZ_CHECK(x.vertices.size() == x.indices.size(), "draw %zu: %zu vertices for %zu references", d,
                   x.vertices.size(), x.indices.size());
    }
}

// `file`: the name the scene was parsed under, which every SceneError must carry.
inline void check_reference_equals_fast(const scene::Scene& s, const std::string& file) {
    tess::TessProfile tp;
    tp.max_vertices = 4096;
    const vs::Profile prof = vs::Profile::d3d8();
    scene::FunctionalResult ref, fast;
    std::string ref_error;
    try {
        ref = scene::run_functional(s, prof, scene::reference_shade(), tp);
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(e.file == file && !e.pointer.empty(), "SceneError without a command: %s", e.what());
        ref_error = e.what();
    }
    try {
        fast = scene::run_functional(s, prof, scene::fast_shade(), tp);
        FUZZ_CHECK(ref_error.empty(), "the reference run failed (%s), the fast one did not", ref_error.c_str());
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(ref_error == e.what(), "errors differ: reference '%s', fast '%s'", ref_error.c_str(), e.what());
        return;
    }
    same_results(ref, fast);
}

}  // namespace vpsim::fuzz

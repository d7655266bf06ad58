// Fixed-function command streams in scenes: the input's bytes drive tests/fuzz/ff_stream.h,
// which writes a scene of fixed-function state commands (transforms and MultiplyTransform runs
// of up to 140, lights, material, viewport, render and texture-stage states, FVF codes),
// a programmable shader whose declaration's CONST tokens hold any bits, application constants
// and draws; the scene goes through parse_scene and run_functional with the reference shader
// and with the fast path. The scene harness (fuzz_scene) reaches the same commands only through
// JSON mutations of the example scenes, which rarely stay valid scenes for long; this one
// always writes valid commands, so the fuzzer's work goes into the state they build.
//
// Properties: the generated scene loads or is refused with a SceneError naming fuzz_ff.json;
// the two executions fail with the same SceneError (naming a command) or give the same draws,
// bit for bit, one vertex per reference. Bounds: at most 160 commands, N-patches at most 3
// segments on draws of at most 12 vertices, and the tessellation profile's max-vertices 4096
// (a draw beyond it is a T13 SceneError), so an input's work is bounded.
#include "fuzz_util.h"
#include "ff_stream.h"

#include "model/common/json_error.h"
#include "model/scene/fast_shade.h"
#include "model/scene/functional.h"
#include "model/scene/scene.h"

using namespace vpsim;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4096) return fuzz::kReject;
    fuzz::Reader in(data, size);
    fuzz::FfStream gen([&in] { return in.u32(); }, [&in] { return in.left() >= 4; });
    const std::string text = gen.scene(160);
    scene::Scene s;
    try {
        s = scene::parse_scene(parse_json_located(text), "/nonexistent", "fuzz_ff.json");
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(e.file == "fuzz_ff.json", "SceneError names '%s'", e.file.c_str());
        return 0;
    }
    tess::TessProfile tp;
    tp.max_vertices = 4096;
    const vs::Profile prof = vs::Profile::d3d8();
    scene::FunctionalResult ref, fast;
    std::string ref_error;
    try {
        ref = scene::run_functional(s, prof, scene::reference_shade(), tp);
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(e.file == "fuzz_ff.json" && !e.pointer.empty(), "SceneError without a command: %s", e.what());
        ref_error = e.what();
    }
    try {
        fast = scene::run_functional(s, prof, scene::fast_shade(), tp);
        FUZZ_CHECK(ref_error.empty(), "the reference run failed (%s), the fast one did not", ref_error.c_str());
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(ref_error == e.what(), "errors differ: reference '%s', fast '%s'", ref_error.c_str(), e.what());
        return 0;
    }
    FUZZ_CHECK(ref.draws.size() == fast.draws.size(), "%zu vs %zu draws", ref.draws.size(), fast.draws.size());
    for (size_t d = 0; d < ref.draws.size(); ++d) {
        const scene::DrawResult &x = ref.draws[d], &y = fast.draws[d];
        FUZZ_CHECK(x.indices == y.indices && x.vertices.size() == y.vertices.size(), "draw %zu (%s): shapes differ", d,
                   x.pointer.c_str());
        FUZZ_CHECK(x.vertices.size() == x.indices.size(), "draw %zu: %zu vertices for %zu references", d,
                   x.vertices.size(), x.indices.size());
        for (size_t v = 0; v < x.vertices.size(); ++v)
            FUZZ_CHECK(vs::same_bits(x.vertices[v], y.vertices[v]), "draw %zu (%s) vertex %zu: fast path differs", d,
                       x.pointer.c_str(), v);
    }
    return 0;
}

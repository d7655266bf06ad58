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
#include "ff_stream.h"
#include "functional_pair.h"
#include "fuzz_util.h"

#include "model/common/json_error.h"
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
    fuzz::check_reference_equals_fast(s, "fuzz_ff.json");
    return 0;
}

// Scenes (model/scene): JSON text -> parse_scene -> run_functional, with the reference shader
// and with the fast path (fast_shade: documented to give the same bits), compared draw by draw.
// Every failure must be the project's own located error (SceneError); any other exception or
// a difference between the two executions is a finding.
//
// Harness limits, so that an input cannot run for ever or read files (docs/fuzzing.md): inputs
// up to 64 KiB; no "file" keys and no file names as "declaration"/"function" (strings), no
// `include` anywhere (the assembler's preprocessor); generator sizes (columns, rows, slices,
// stacks, rings, sides) <= 64; primitive counts <= 4096; at most 64 commands.
#include "fuzz_util.h"

#include "model/common/json_error.h"
#include "model/scene/fast_shade.h"
#include "model/scene/functional.h"
#include "model/scene/scene.h"

using namespace vpsim;
using json = nlohmann::json;

namespace {

// False when the document is outside the harness limits (see the top).
bool within_limits(const json& j, int depth = 0) {
    if (depth > 64) return false;
    if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string& k = it.key();
            const json& v = it.value();
            if (k == "file") return false;
            if ((k == "function" || k == "declaration") && v.is_string()) return false;
            if ((k == "columns" || k == "rows" || k == "slices" || k == "stacks" || k == "rings" || k == "sides") &&
                v.is_number() && !(v.get<double>() <= 64))
                return false;
            if (k == "primitive_count" && v.is_number() && !(v.get<double>() <= 4096)) return false;
            if (k == "commands" && v.is_array() && v.size() > 64) return false;
            if (!within_limits(v, depth + 1)) return false;
        }
    } else if (j.is_array()) {
        for (const json& v : j)
            if (!within_limits(v, depth + 1)) return false;
    }
    return true;
}

void same_results(const scene::FunctionalResult& a, const scene::FunctionalResult& b) {
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

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024) return fuzz::kReject;
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (text.find("include") != std::string::npos) return fuzz::kReject;
    json j;
    try {
        j = parse_json_located(text);
    } catch (const std::runtime_error& e) {
        FUZZ_CHECK(std::string(e.what()).rfind("line ", 0) == 0, "JSON error without a position: %s", e.what());
        return 0;
    }
    if (!within_limits(j)) return fuzz::kReject;
    scene::Scene s;
    try {
        s = scene::parse_scene(j, "/nonexistent", "fuzz.json");
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(e.file == "fuzz.json", "SceneError names '%s'", e.file.c_str());
        return 0;
    }
    uint64_t bytes = 0;
    for (const auto& b : s.buffers) bytes += b.second.bytes.size();
    FUZZ_CHECK(bytes <= 64ull << 20, "%llu bytes of buffers from a %zu-byte scene", (unsigned long long)bytes, size);

    const vs::Profile prof = vs::Profile::d3d8();
    scene::FunctionalResult ref, fast;
    std::string ref_error;
    try {
        ref = scene::run_functional(s, prof, scene::reference_shade());
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(e.file == "fuzz.json" && !e.pointer.empty(), "SceneError without a command: %s", e.what());
        ref_error = e.what();
    }
    try {
        fast = scene::run_functional(s, prof, scene::fast_shade());
        FUZZ_CHECK(ref_error.empty(), "the reference run failed (%s), the fast one did not", ref_error.c_str());
    } catch (const scene::SceneError& e) {
        FUZZ_CHECK(ref_error == e.what(), "errors differ: reference '%s', fast '%s'", ref_error.c_str(), e.what());
        return 0;
    }
    same_results(ref, fast);
    return 0;
}

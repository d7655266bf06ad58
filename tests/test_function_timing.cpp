// One truth for function and timing (issue 37): a scene the functional model runs (what
// `vpsim scene-exec` does) the timing model runs too (what `vpsim run` does), with the same
// vertices, bit for bit, and no internal error. The three scenes that broke it (constants that
// are NaN, compared as floats where the driver tracks them as bits), the fuzz corpus's seed
// scenes (examples/, tests/fuzz/regressions/scene) and seeded generated command streams
// (tests/fuzz/ff_stream.h). A longer campaign: scripts/function-timing.sh.
#include "model/common/json_error.h"
#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/scene/fast_shade.h"
#include "model/scene/functional.h"
#include "model/scene/scene.h"
#include "tests/fuzz/ff_stream.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <string>
#include <vector>

using namespace vpsim;

namespace {

std::string read_text(const std::string& path) {
    std::ifstream f(path, std::ios::binary);
    std::stringstream s;
    s << f.rdbuf();
    return s.str();
}

nlohmann::json example(const std::string& rel) {
    return parse_json_located(read_text(std::string(VPSIM_SOURCE_DIR) + "/" + rel));
}

struct Both {
    bool functional = false;    // the functional model ran the scene
    std::string functional_error;  // ... or what it threw
    size_t references = 0;      // its vertex references
    std::string timing_error;   // what the timing model threw ("" when it ran)
    bool timing_internal = false;  // ... and it was not a scene error (an internal error)
    std::string difference;     // the first vertex that differs ("" when none)
};

// The scene both ways: the functional model with scene-exec's defaults (device caps, tessellation
// profile), the timing model with run's default parameters.
Both run_both(const scene::Scene& s) {
    Both b;
    scene::FunctionalResult f;
    try {
        f = scene::run_functional(s, vs::Profile::d3d8(), scene::fast_shade());
        b.functional = true;
    } catch (const scene::SceneError& e) {
        b.functional_error = e.what();
        return b;
    }
    for (const auto& d : f.draws) b.references += d.vertices.size();
    std::vector<std::vector<uint32_t>> indices;
    std::vector<std::vector<vs::VertexOutputs>> vertices;
    sc::RunOptions opt;
    opt.sink = [&](const sc::DrawState& d, uint64_t, uint32_t index, const vs::VertexOutputs& o) {
        if (indices.size() <= d.id) indices.resize(d.id + 1), vertices.resize(d.id + 1);
        indices[d.id].push_back(index);
        vertices[d.id].push_back(o);
    };
    try {
        const sc::RunResult r = sc::run_pipeline(s, sc::default_params(), vs::Profile::d3d8(), opt);
        if (!r.cycle_errors.empty()) b.difference = "cycle contract: " + r.cycle_errors.front();
    } catch (const scene::SceneError& e) {
        b.timing_error = e.what();
        return b;
    } catch (const std::exception& e) {
        b.timing_error = e.what();
        b.timing_internal = true;
        return b;
    }
    indices.resize(f.draws.size()), vertices.resize(f.draws.size());
    for (size_t d = 0; d < f.draws.size() && b.difference.empty(); ++d) {
        if (indices[d] != f.draws[d].indices) {
            b.difference = fmt::format("draw {}: other vertex references", d);
            break;
        }
        for (size_t k = 0; k < vertices[d].size(); ++k)
            if (!vs::same_bits(vertices[d][k], f.draws[d].vertices[k])) {
                b.difference = fmt::format("draw {} ({}), reference {}", d, f.draws[d].pointer, k);
                break;
            }
    }
    return b;
}

void require_same(const scene::Scene& s) {
    const Both b = run_both(s);
    INFO("scene " << s.name);
    REQUIRE(b.functional);
    CHECK(b.timing_error == "");
    CHECK(b.difference == "");
}

scene::Scene parsed(const nlohmann::json& j, const std::string& name) {
    return scene::parse_scene(j, std::string(VPSIM_SOURCE_DIR) + "/examples/scenes", name);
}

}  // namespace

TEST_CASE("Function and timing: a world matrix of 3e38 entries (NaN constants) runs in both with the same vertices",
          "[timing][function-timing]") {
    nlohmann::json j = example("examples/scenes/ff_lit.json");
    REQUIRE(j["commands"][1]["op"] == "SetTransform");
    j["commands"][1]["matrix"] = nlohmann::json::array();
    for (int i = 0; i < 16; ++i) j["commands"][1]["matrix"].push_back(3e38);
    require_same(parsed(j, "ff_lit_world_3e38.json"));
}

TEST_CASE("Function and timing: a declaration CONST token holding NaN bits runs in both with the same vertices",
          "[timing][function-timing]") {
    std::string t = read_text(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/decl_tokens.json");
    const size_t at = t.find("D3DVSD_CONST(4, 1), 0x3F800000");
    REQUIRE(at != std::string::npos);
    t.replace(at + std::strlen("D3DVSD_CONST(4, 1), "), 10, "0x7FC00000");
    require_same(parsed(parse_json_located(t), "decl_tokens_const_nan.json"));
}

TEST_CASE("Function and timing: 130 MultiplyTransform x 2 commands (a world matrix overflowing) run in both alike",
          "[timing][function-timing]") {
    nlohmann::json j = example("examples/scenes/ff_lit.json");
    const nlohmann::json twice = {{"op", "MultiplyTransform"}, {"state", "WORLD"},
                                  {"matrix", {2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}}};
    nlohmann::json cmds = nlohmann::json::array();
    for (size_t i = 0; i < j["commands"].size(); ++i) {
        cmds.push_back(j["commands"][i]);
        if (i == 1)
            for (int k = 0; k < 130; ++k) cmds.push_back(twice);
    }
    j["commands"] = cmds;
    require_same(parsed(j, "ff_lit_multiply_130.json"));
}

TEST_CASE("Function and timing: every seed scene of the fuzz corpus that the functional model runs, the timing "
          "model runs with the same vertices", "[timing][function-timing]") {
    // The scene harness's seeds (scripts/fuzz.sh: every .json under examples/ that is a scene)
    // and its regression inputs; VPSIM_FUNCTION_TIMING_DIR=DIR adds every file of DIR (a fuzz
    // campaign's corpus: scripts/function-timing.sh --corpus).
    std::vector<std::string> files;
    for (const char* dir : {"/examples", "/tests/fuzz/regressions/scene"})
        for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(VPSIM_SOURCE_DIR) + dir))
            if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
    if (const char* extra = std::getenv("VPSIM_FUNCTION_TIMING_DIR"); extra && *extra)
        for (const auto& e : std::filesystem::directory_iterator(extra))
            if (e.is_regular_file()) files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    size_t scenes = 0, ran = 0;
    for (const std::string& f : files) {
        scene::Scene s;
        try {
            s = scene::load_scene(f);
        } catch (const std::exception&) {
            continue;  // not a scene (a study, a topology, a config) or one refused at load
        }
        ++scenes;
        const Both b = run_both(s);
        INFO(f);
        CHECK_FALSE(b.timing_internal);
        if (!b.functional) continue;
        ++ran;
        CHECK(b.timing_error == "");
        CHECK(b.difference == "");
    }
    std::cout << "function/timing: " << scenes << " seed scenes loaded, " << ran << " ran in both\n";
    CHECK(ran >= 20);  // the examples alone: 79
}

TEST_CASE("Function and timing: seeded fixed-function command streams run in both with the same vertices",
          "[timing][function-timing]") {
    // VPSIM_FUNCTION_TIMING_STREAMS=N (default 12) streams of up to 400 commands.
    const uint64_t seed = test_seed("function/timing streams");
    const char* env = std::getenv("VPSIM_FUNCTION_TIMING_STREAMS");
    const size_t streams = env && *env ? std::strtoull(env, nullptr, 10) : 12;
    std::mt19937_64 rng(seed);
    size_t ran = 0, refused = 0, references = 0;
    std::string first_refusal;
    for (size_t i = 0; i < streams; ++i) {
        fuzz::FfStream gen([&rng] { return uint32_t(rng()); }, [] { return true; });
        const std::string text = gen.scene(400);
        scene::Scene s;
        try {
            s = scene::parse_scene(parse_json_located(text), ".", fmt::format("stream_{}_{}.json", seed, i));
        } catch (const scene::SceneError& e) {
            if (first_refusal.empty()) first_refusal = e.what();
            ++refused;
            continue;
        }
        const Both b = run_both(s);
        INFO("stream " << i << " of seed " << seed << ":\n" << text);
        REQUIRE_FALSE(b.timing_internal);
        if (!b.functional) {
            if (first_refusal.empty()) first_refusal = b.functional_error;
            ++refused;
            continue;
        }
        ++ran;
        references += b.references;
        REQUIRE(b.timing_error == "");
        REQUIRE(b.difference == "");
    }
    std::cout << "function/timing: seed " << seed << ": " << streams << " streams, " << ran << " ran in both ("
              << references << " vertex references), " << refused << " refused by the functional model"
              << (first_refusal.empty() ? "" : " (the first: " + first_refusal + ")") << "\n";
    CHECK(ran * 2 >= streams);
}

// RTL in the loop (model/sc/rtl_decl_decoder.h, `vpsim run --rtl decl_decoder`): the Verilated RTL
// declaration decoder inside the full pipeline, against the SystemC model DeclDecoderUnit, on
// every scene file under examples/scenes/ (found at start-up, one test case each) and on the
// built-in default scene: the same cycle count, the same statistics and the same vertices.
#include "model/common/params.h"
#include "model/sc/decl_decoder_slot.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"
#include "model/scene/scene.h"
#include "model/sc/rtl_decl_decoder.h"
#include "model/sc/rtl_in_loop.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <string>
#include <vector>

using namespace vpsim;

namespace {

struct Emitted {
    uint32_t draw = 0;
    uint64_t ref = 0;
    uint32_t index = 0;
    vs::VertexOutputs outputs;
};

struct Captured {
    sc::RunResult result;
    std::vector<Emitted> vertices;  // in emission order
    bool rtl_made = false;          // the RTL decoder was built for this run
};

Captured run(const scene::Scene& s, bool rtl, const std::vector<std::string>& sets = {}) {
    ParamSet p = sc::default_params();
    for (const auto& kv : sets) p.apply_set(kv);
    Captured c;
    sc::RunOptions opt;
    opt.sink = [&c](const sc::DrawState& d, uint64_t ref, uint32_t index, const vs::VertexOutputs& o) {
        c.vertices.push_back({d.id, ref, index, o});
    };
    sc::UnitRegistry units = sc::builtin_units();
    if (rtl) {
        sc::DeclDecoderImpl decoder = sc::rtl_decl_decoder();
        decoder.make = [&c, make = decoder.make](const std::string& n, const sc::DeclDecoderParams& dp,
                                                 sc::DeclDecoderPins& pins) {
            c.rtl_made = true;
            return make(n, dp, pins);
        };
        sc::use_rtl(units, opt, "decl_decoder", sc::decl_decoder_factory(decoder));
    }
    c.result = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
    return c;
}

// stats.json's content without the host's timing.
nlohmann::ordered_json without_host_timing(const nlohmann::ordered_json& j) {
    if (j.is_object()) {
        nlohmann::ordered_json o = nlohmann::ordered_json::object();
        for (const auto& [k, v] : j.items())
            if (k != "host_seconds" && k != "cycles_per_host_second") o[k] = without_host_timing(v);
        return o;
    }
    if (j.is_array()) {
        nlohmann::ordered_json a = nlohmann::ordered_json::array();
        for (const auto& v : j) a.push_back(without_host_timing(v));
        return a;
    }
    return j;
}

void check_rtl_equals_model(const scene::Scene& s) {
    INFO("scene " << s.name);
    const Captured model = run(s, false);
    const Captured rtl = run(s, true);
    REQUIRE(rtl.rtl_made);
    REQUIRE_FALSE(model.rtl_made);
    CHECK(model.result.cycle_errors.empty());
    CHECK(rtl.result.cycle_errors.empty());
    CHECK(rtl.result.cycles == model.result.cycles);
    const auto ms = without_host_timing(model.result.stats), rs = without_host_timing(rtl.result.stats);
    INFO("model decl_decoder: " << ms["units"]["decl_decoder"].dump());
    INFO("RTL decl_decoder:   " << rs["units"]["decl_decoder"].dump());
    CHECK(rs["units"]["decl_decoder"] == ms["units"]["decl_decoder"]);
    CHECK(rs == ms);
    REQUIRE(rtl.vertices.size() == model.vertices.size());
    for (size_t k = 0; k < model.vertices.size(); ++k) {
        const Emitted &a = model.vertices[k], &b = rtl.vertices[k];
        INFO("vertex " << k << ": draw " << a.draw << " reference " << a.ref);
        REQUIRE(b.draw == a.draw);
        REQUIRE(b.ref == a.ref);
        REQUIRE(b.index == a.index);
        REQUIRE(vs::same_bits(b.outputs, a.outputs));
    }
}

// Every .json under examples/scenes/, in every subfolder, sorted.
std::vector<std::filesystem::path> scene_files() {
    std::vector<std::filesystem::path> v;
    const std::filesystem::path root = std::filesystem::path(VPSIM_SOURCE_DIR) / "examples" / "scenes";
    for (const auto& e : std::filesystem::recursive_directory_iterator(root))
        if (e.is_regular_file() && e.path().extension() == ".json") v.push_back(e.path());
    std::sort(v.begin(), v.end());
    return v;
}

// One test case per scene file, so ctest lists (and runs in parallel) each scene on its own.
struct SceneCase : Catch::ITestInvoker {
    std::filesystem::path path;
    explicit SceneCase(std::filesystem::path p) : path(std::move(p)) {}
    void invoke() const override { check_rtl_equals_model(scene::load_scene(path.string())); }
};

const bool registered = [] {
    static std::deque<std::string> names;  // the test cases' names outlive the registry's use of them
    const std::filesystem::path root = std::filesystem::path(VPSIM_SOURCE_DIR) / "examples" / "scenes";
    for (const auto& f : scene_files()) {
        names.push_back("RTL decl_decoder in the pipeline equals the model: examples/scenes/" +
                        f.lexically_relative(root).generic_string());
        Catch::AutoReg(new SceneCase(f), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                       Catch::NameAndTags{names.back(), "[rtl]"});
    }
    return true;
}();

}  // namespace

TEST_CASE("The scene files are found in examples/scenes/ and its subfolders", "[rtl]") {
    REQUIRE(registered);
    const auto files = scene_files();
    CHECK(files.size() >= 2);
    CHECK(std::any_of(files.begin(), files.end(),
                      [](const std::filesystem::path& p) { return p.parent_path().filename() == "patches"; }));
}

TEST_CASE("RTL decl_decoder in the pipeline equals the model: the built-in default scene", "[rtl]") {
    check_rtl_equals_model(scene::default_scene());
}

TEST_CASE("The RTL decoder counts its statistics from the pins: tokens and events of every declaration", "[rtl]") {
    const scene::Scene s = scene::default_scene();
    uint64_t tokens = 0, decls = 0;
    for (const auto& c : s.commands)
        if (const auto* cv = std::get_if<scene::CreateVertexShader>(&c.body)) tokens += cv->declaration.size(), ++decls;
    REQUIRE(decls > 0);
    const Captured rtl = run(s, true);
    const auto& g = rtl.result.stats["units"]["decl_decoder"];
    CHECK(g["counters"]["tokens"]["value"] == tokens);
    CHECK(g["counters"]["events.end"]["value"] == decls);
}

TEST_CASE("The RTL decoder refuses decoder parameters other than its Verilated ones, naming both values", "[rtl]") {
    scene::Scene s = scene::default_scene();
    s.const_count = 192;
    CHECK_THROWS_AS(run(s, true), ParamError);
    CHECK_THROWS_WITH(run(s, true), Catch::Contains("const_count is 192") && Catch::Contains("CONST_COUNT=96"));
    CHECK_THROWS_WITH(run(scene::default_scene(), true, {"decl_decoder.max_length=100"}),
                      Catch::Contains("max_length is 100") && Catch::Contains("MAX_LENGTH=4096"));
    // The model takes any.
    CHECK_NOTHROW(run(scene::default_scene(), false, {"decl_decoder.max_length=100"}));
}

// Correlation with measured hardware (model/bench/correlation.h, docs/calibration.md "Correlation
// with measured hardware"): the measurements file is well-formed (every figure has its page, its
// quoted row showing the value, a known preset and a scene), the split rule is applied by
// position, bad files are refused naming the file, the JSON pointer and the rule, and the model's
// value is the scene's cycles turned into the figure's unit. No test asserts the errors' size.
#include "model/bench/correlation.h"
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <functional>
#include <set>
#include <string>

using namespace vpsim;
using nlohmann::json;

namespace {

const std::string kData = std::string(VPSIM_SOURCE_DIR) + "/examples/correlation/measurements.json";

json data_json() {
    std::ifstream in(kData);
    REQUIRE(in);
    return json::parse(in);
}

// The error parse_measurements throws for `j` (as if read from kData), or "" when it accepts it.
std::string error_of(const json& j) {
    try {
        bench::parse_measurements(j, kData);
    } catch (const bench::MeasurementError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("The measurements file is well-formed: every figure has its page, its quoted row and a scene",
          "[correlation]") {
    const bench::Measurements d = bench::load_measurements(kData);
    REQUIRE(!d.figures.empty());
    std::set<std::string> ids;
    for (const auto& m : d.figures) {
        INFO(m.id);
        CHECK(ids.insert(m.id).second);
        CHECK((m.url.rfind("http://", 0) == 0 || m.url.rfind("https://", 0) == 0));
        CHECK(!m.quote.empty());
        CHECK(!m.test.empty());
        CHECK(!m.chip.empty());
        CHECK(m.core_mhz > 0);
        CHECK(m.value > 0);
        CHECK(std::filesystem::is_regular_file(m.scene_path));
        CHECK_NOTHROW(find_preset(m.preset));
        if (m.measure == bench::Measure::FramesPerSecond) CHECK(m.triangles_per_frame > 0);
    }
    for (const auto& c : d.context) {
        INFO(c.id);
        CHECK(ids.insert(c.id).second);
        CHECK(!c.url.empty());
        CHECK(!c.quote.empty());
        CHECK(!c.why.empty());
    }
}

TEST_CASE("The split holds out every third figure by position in the file", "[correlation]") {
    for (size_t i = 0; i < 30; ++i) CHECK(bench::split_holdout(i) == ((i + 1) % 3 == 0));
    const bench::Measurements d = bench::load_measurements(kData);
    for (const auto& m : d.figures) {
        INFO(m.id);
        CHECK(m.holdout == ((m.index + 1) % 3 == 0));
    }
    // Appending a figure leaves every earlier figure in its set.
    json j = data_json();
    json extra = j["figures"][0];
    extra["id"] = "appended";
    j["figures"].push_back(extra);
    const bench::Measurements more = bench::parse_measurements(j, kData);
    for (size_t i = 0; i < d.figures.size(); ++i) CHECK(more.figures[i].holdout == d.figures[i].holdout);
}

TEST_CASE("A bad measurements file is refused, naming the file, the JSON pointer and the rule", "[correlation]") {
    const json good = data_json();
    REQUIRE(error_of(good).empty());
    struct Case {
        std::function<void(json&)> edit;
        std::string want;
    };
    const std::vector<Case> cases = {
        {[](json& j) { j["figures"][1].erase("url"); }, "/figures/1/url: missing (every figure names the page"},
        {[](json& j) { j["figures"][1]["url"] = "a magazine"; }, "/figures/1/url: expected the address of the page"},
        {[](json& j) { j["figures"][2]["quote"] = " "; }, "/figures/2/quote: expected a non-empty string"},
        {[](json& j) { j["figures"][0]["value"] = 16.7; }, "/figures/0/quote: the quote does not show the value 16.7"},
        {[](json& j) { j["figures"][1]["id"] = j["figures"][0]["id"]; }, "/figures/1/id: \"3dm01-ffrate-gf3\" names another figure too"},
        {[](json& j) { j["figures"][0]["preset"] = "nv30"; }, "/figures/0/preset: no such preset \"nv30\"; valid presets: nv20, nv2a, nv25"},
        {[](json& j) { j["figures"][0]["measure"] = "vertices"; }, "/figures/0/measure: expected \"triangles_per_second\" or"},
        {[](json& j) { j["figures"][0]["triangles_per_frame"] = 5; }, "/figures/0/triangles_per_frame: only a frame rate"},
        {[](json& j) { j["figures"][6].erase("triangles_per_frame"); }, "/figures/6/triangles_per_frame: missing"},
        {[](json& j) { j["figures"][0]["date"] = "2001-13"; }, "/figures/0/date: expected YYYY, YYYY-MM or YYYY-MM-DD"},
        {[](json& j) { j["figures"][0]["core_mhz"] = 0; }, "/figures/0/core_mhz: expected a positive number"},
        {[](json& j) { j["figures"][0]["comparison"] = "bound"; }, "/figures/0/comparison: expected \"rate\""},
        {[](json& j) { j["figures"][0]["sets"] = {"pipeline.clock_mhz=300"}; }, "/figures/0/sets/0: the clock comes from core_mhz"},
        {[](json& j) { j["figures"][0]["valeu"] = 1; }, "/figures/0/valeu: unknown key; valid keys: id, test"},
        {[](json& j) { j["context"][0].erase("quote"); }, "/context/0/quote: missing"},
        {[](json& j) { j["schema"] = "vpsim-measurements-0"; }, "/schema: expected \"vpsim-measurements-1\""},
        {[](json& j) { j["figures"] = json::array(); }, "/figures: expected a non-empty array"},
    };
    for (const auto& c : cases) {
        json j = good;
        c.edit(j);
        const std::string e = error_of(j);
        INFO(e);
        CHECK(e.rfind(kData + ": ", 0) == 0);
        CHECK(e.find(c.want) != std::string::npos);
    }
}

TEST_CASE("The model's figure is the scene's triangles over its cycles at the chip's clock, in the figure's unit",
          "[correlation]") {
    json j = data_json();
    // Two figures on the 1-light scene: one in M triangles/s at another clock than the preset's, one
    // in frames per second of 61,440 triangles (ten times the scene's).
    json a = j["figures"][0];  // nv20, 200 MHz, M/s, hpc_1light.json
    a["id"] = "a";
    a["core_mhz"] = 240;
    json b = a;
    b["id"] = "b";
    b["measure"] = "frames_per_second";
    b["unit"] = "fps";
    b["unit_scale"] = 1;
    b["value"] = 16.6;
    b["triangles_per_frame"] = 61440;
    b["triangles_per_frame_source"] = "this test";
    b["comparison"] = "upper_bound";
    j["figures"] = json::array({a, b});
    const bench::Measurements d = bench::parse_measurements(j, kData);
    const auto rows = bench::correlate(d);
    REQUIRE(rows.size() == 2);

    ParamSet p = sc::default_params();
    apply_preset(p, "nv20");
    p.apply_set("pipeline.clock_mhz=240");
    const sc::RunResult r = sc::run_pipeline(scene::load_scene(d.figures[0].scene_path), p, vs::Profile::d3d8());
    REQUIRE(r.count("primitives") == 6144);
    const double tps = double(r.count("primitives")) * 240e6 / double(r.cycles);
    CHECK(rows[0].sets == std::vector<std::string>{"pipeline.clock_mhz=240"});
    CHECK(rows[0].clock_mhz == 240);
    CHECK(rows[0].cycles == r.cycles);
    CHECK(rows[0].model == Approx(tps / 1e6));
    CHECK(rows[0].error == Approx((tps / 1e6 - 16.6) / 16.6));
    CHECK(rows[0].within == (std::fabs(rows[0].error) <= bench::kTolerance));
    CHECK(rows[1].model == Approx(tps / 61440));
    CHECK(rows[1].within == (rows[1].model >= 16.6));  // an upper bound holds when the model is not slower

    const bench::CorrelationSummary s = bench::summarise(rows);
    CHECK(s.fit.rate_figures == 1);  // a: position 1, a rate
    CHECK(s.fit.bounds == 1);        // b: position 2, an upper bound
    CHECK(s.holdout.rate_figures == 0);
    CHECK(s.fit.mean_abs_error == Approx(std::fabs(rows[0].error)));
    CHECK(!s.goal_met);  // two figures are short of the goal's twelve
}

// Hardware presets and calibration (model/common/presets.h, model/bench/calibration.h,
// docs/calibration.md): the presets' values and sources, the published vertex rates, and the
// mechanisms the rates rest on (read-ahead in the vertex fetch, oldest-first issue), each shown
// by switching it off.
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/bench/calibration.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>
#include <vector>

using namespace vpsim;

namespace {

scene::Scene transform_only(uint32_t vertices = 30000) {
    return scene::parse_scene(nlohmann::json::parse(bench::transform_only_scene_json(vertices).dump()), "", "<transform>");
}

sc::RunResult run_with(const scene::Scene& s, const std::string& preset, const std::vector<std::string>& sets = {}) {
    ParamSet p = sc::default_params();
    if (!preset.empty()) apply_preset(p, preset);
    for (const auto& kv : sets) p.apply_set(kv);
    sc::RunResult r = sc::run_pipeline(s, p, vs::Profile::d3d8());
    REQUIRE(r.cycle_errors.empty());
    return r;
}

}  // namespace

TEST_CASE("Every built-in preset applies to the model's tables and gives every value a source", "[presets]") {
    REQUIRE(presets().size() == 3);
    std::vector<std::string> names;
    for (const Preset& pr : presets()) {
        names.push_back(pr.name);
        INFO("preset " << pr.name);
        ParamSet p = sc::default_params();
        REQUIRE_NOTHROW(apply_preset(p, pr.name));
        CHECK(pr.target_vps > 0);
        CHECK(pr.tolerance > 0);
        CHECK_FALSE(pr.target_source.empty());
        size_t values = 0;
        for (const auto& [unit, params] : pr.json["params"].items())
            for (const auto& [name, entry] : params.items()) {
                INFO(unit << "." << name);
                const std::string src = entry["source"].get<std::string>();
                CHECK((src.rfind("published", 0) == 0 || src.rfind("assumed", 0) == 0));
                CHECK(p.value(unit + "." + name).dump() == entry["value"].dump());
                ++values;
            }
        CHECK(values >= 20);
    }
    // In the order the chips came out.
    CHECK(names == std::vector<std::string>{"nv20", "nv2a", "nv25"});
}

TEST_CASE("The built-in defaults are the GeForce3 (nv20) preset's values", "[presets]") {
    ParamSet d = sc::default_params(), nv20 = sc::default_params();
    apply_preset(nv20, "nv20");
    CHECK(d.to_json() == nv20.to_json());
    ParamSet nv2a = sc::default_params();
    apply_preset(nv2a, "nv2a");
    CHECK(nv2a.get_uint("vertex_alu.engines") == 2);
    CHECK(nv2a.get_double("pipeline.clock_mhz") == 233.0);
}

TEST_CASE("A --set wins over a preset, and a preset file is a --config file", "[presets]") {
    ParamSet p = sc::default_params();
    apply_preset(p, "nv25");
    p.apply_set("vertex_alu.engines=4");
    CHECK(p.get_uint("vertex_alu.engines") == 4);
    CHECK(p.get_double("pipeline.clock_mhz") == 300.0);
    // The same file through apply_config_file.
    const std::string path = fmt::format("{}/vpsim_test_preset_{}.json", std::filesystem::temp_directory_path().string(),
                                         ::getpid());
    { std::ofstream(path) << find_preset("nv2a").text; }
    ParamSet q = sc::default_params();
    q.apply_config_file(path);
    ParamSet r = sc::default_params();
    apply_preset(r, "nv2a");
    CHECK(q.to_json() == r.to_json());
    std::filesystem::remove(path);
}

TEST_CASE("A --set enum value that is not UTF-8 is a parameter error, not a JSON exception", "[presets]") {
    ParamSet p = sc::default_params();
    CHECK_THROWS_AS(p.apply_set("vertex_alu.coissue=\x90"), ParamError);
    CHECK_THROWS_WITH(p.apply_set("vertex_alu.coissue=\x90"), Catch::Contains("vertex_alu.coissue"));
}

TEST_CASE("A preset value without a source, or an unknown preset, is refused and located", "[presets]") {
    ParamSet p = sc::default_params();
    auto j = nlohmann::json::parse(find_preset("nv20").text);
    j["params"]["vertex_alu"]["engines"].erase("source");
    try {
        p.apply_preset_json(j, "mine.json");
        FAIL("accepted a value without a source");
    } catch (const ParamError& e) {
        CHECK_THAT(e.what(), Catch::Contains("mine.json") && Catch::Contains("/params/vertex_alu/engines") &&
                                 Catch::Contains("source"));
    }
    j = nlohmann::json::parse(find_preset("nv20").text);
    j["params"]["vertex_alu"]["engines"]["value"] = 0;  // out of range
    CHECK_THROWS_WITH(p.apply_preset_json(j, "mine.json"), Catch::Contains("vertex_alu.engines"));
    CHECK(p.to_json() == sc::default_params().to_json());  // nothing applied
    CHECK_THROWS_WITH(apply_preset(p, "nv30"), Catch::Contains("nv20, nv2a, nv25"));
}

TEST_CASE("The built-in sensitivity entries name assumed preset values, and a run leaves out those it overrides",
          "[presets]") {
    size_t entries = 0;
    for (const Preset& pr : presets()) {
        INFO("preset " << pr.name);
        for (const SensitiveAssumption& a : sensitive_assumptions(pr.name)) {
            INFO(a.param);
            const size_t dot = a.param.find('.');
            REQUIRE(dot != std::string::npos);
            const auto& e = pr.json["params"][a.param.substr(0, dot)][a.param.substr(dot + 1)];
            CHECK(e["source"].get<std::string>().rfind("assumed", 0) == 0);
            CHECK(e["value"].dump() == a.value.dump());
            CHECK((std::fabs(a.change) > kSensitivityThreshold || !a.refused.empty()));
            CHECK_THAT(a.text(), Catch::StartsWith(a.param + " (assumed; "));
            ++entries;
        }
        const auto& all = sensitive_assumptions(pr.name);
        if (all.empty()) continue;
        ParamSet p = sc::default_params();
        apply_preset(p, pr.name);
        CHECK(assumptions_in_force(pr.name, p, {}).size() == all.size());
        // A --set names it (even to the preset's value), or a --config changed it: left out.
        const std::string set = all[0].param + "=" + (all[0].value.is_string() ? all[0].value.get<std::string>()
                                                                                : all[0].value.dump());
        p.apply_set(set);
        auto in_force = assumptions_in_force(pr.name, p, {set});
        CHECK(in_force.size() == all.size() - 1);
        for (const auto& a : in_force) CHECK(a.param != all[0].param);
        ParamSet q = sc::default_params();
        apply_preset(q, pr.name);
        if (all.back().value.is_number_unsigned()) {
            q.apply_json({{all.back().param.substr(0, all.back().param.find('.')),
                           {{all.back().param.substr(all.back().param.find('.') + 1), all.back().value.get<uint64_t>() + 1}}}});
            CHECK(assumptions_in_force(pr.name, q, {}).size() == all.size() - 1);
        }
    }
    CHECK(entries > 0);
    CHECK(sensitive_assumptions("no-such-preset").empty());
}

TEST_CASE("A malformed sensitivity entry is refused, naming where and the rule", "[presets]") {
    const nlohmann::json ok = {{"param", "memory.latency"}, {"value", 93},      {"change_percent", 65.9},
                               {"result", "suite"},         {"workload", "toon"}, {"at", "double"},
                               {"at_value", 186}};
    const SensitiveAssumption a = SensitiveAssumption::from_json(ok, "f.json: /presets/nv2a/0");
    CHECK(a.text() == "memory.latency (assumed; +65.9 % cycles on toon at double, 186)");
    CHECK(nlohmann::json(a.to_json()) == ok);
    auto bad = ok;
    bad["result"] = "elsewhere";
    CHECK_THROWS_WITH(SensitiveAssumption::from_json(bad, "f.json: /presets/nv2a/0"),
                      Catch::Contains("f.json: /presets/nv2a/0") && Catch::Contains("\"calibration\" or \"suite\""));
    bad = ok;
    bad["change_percent"] = 4.0;
    CHECK_THROWS_WITH(SensitiveAssumption::from_json(bad, "f.json: /presets/nv2a/0"),
                      Catch::Contains("moves no result by more than 10 %"));
    bad = ok;
    bad.erase("workload");
    CHECK_THROWS_WITH(SensitiveAssumption::from_json(bad, "f.json: /presets/nv2a/0"), Catch::Contains("workload"));
    auto refuses = ok;
    refuses["change_percent"] = 0.0;
    refuses["result"] = "calibration";
    refuses.erase("workload");
    refuses["refuses"] = {{"at", "half"}, {"at_value", 4}, {"workloads", {"ff_spot_8"}}};
    CHECK(SensitiveAssumption::from_json(refuses, "f").text() ==
          "memory.latency (assumed; the caps refuse 1 workload at half, 4)");
}

TEST_CASE("Each preset reproduces its chip's published vertex rate on the transform-only workload", "[presets][calibration]") {
    const auto rows = bench::calibrate();
    REQUIRE(rows.size() == 3);
    for (const auto& r : rows) {
        INFO(fmt::format("{}: published {:.1f} M, model {:.1f} M, error {:+.1f} %, {}", r.preset, r.published / 1e6,
                         r.model / 1e6, 100 * r.error, r.bottleneck));
        CHECK(r.vertices == 30000);
        CHECK(r.ok);
        // Transform-only is bound by the vertex ALU on every chip, as the published figures are.
        CHECK_THAT(r.bottleneck, Catch::StartsWith("the vertex ALU"));
    }
}

TEST_CASE("Read-ahead hides memory latency that the fetch window alone does not", "[calibration]") {
    const scene::Scene s = transform_only(6000);
    const auto with = run_with(s, "nv25");
    const auto without = run_with(s, "nv25", {"vertex_fetch.prefetch_lines=0"});
    INFO("cycles with read-ahead " << with.cycles << ", without " << without.cycles);
    // Without it, 16 vertices in flight cover 16 x 12 B over a 120-cycle latency: memory-bound.
    CHECK(double(without.cycles) > 2.0 * double(with.cycles));
    CHECK(with.stats["units"]["vertex_fetch"]["counters"]["prefetches"]["value"].get<uint64_t>() > 0);
    CHECK(without.stats["units"]["vertex_fetch"]["counters"]["prefetches"]["value"].get<uint64_t>() == 0);
    CHECK_THAT(with.bottleneck, Catch::StartsWith("the vertex ALU"));
}

TEST_CASE("Oldest-first issue keeps three vertices in flight covering an 8-cycle latency, round robin does not",
          "[calibration]") {
    // One engine, a 4-slot program of independent dot products: oldest first, vertex k issues in
    // cycles 4k..4k+3 and its context is free again after 4 + 8 + 1 cycles, in time for vertex k+3.
    const scene::Scene s = transform_only(3000);
    const std::vector<std::string> sets{"vertex_alu.dot_latency=8"};
    auto oldest = sets, rr = sets;
    oldest.push_back("vertex_alu.schedule=oldest");
    rr.push_back("vertex_alu.schedule=round_robin");
    const auto a = run_with(s, "nv20", oldest), b = run_with(s, "nv20", rr);
    const double cpv_a = double(a.cycles) / double(a.count("shaded")), cpv_b = double(b.cycles) / double(b.count("shaded"));
    INFO("oldest " << cpv_a << " cycles/vertex, round robin " << cpv_b);
    CHECK(cpv_a < 4.05);
    CHECK(cpv_b > 4.3);  // the three vertices march together and wait for their last results together
}

TEST_CASE("The bottleneck follows the unit that saturates", "[calibration]") {
    const scene::Scene s = transform_only(3000);
    const auto narrow = run_with(s, "nv2a", {"memory.bytes_per_cycle=1"});
    CHECK(narrow.bottleneck_unit == "memory");
    CHECK_THAT(narrow.bottleneck, Catch::StartsWith("the memory bus"));
    const auto slow_out = run_with(s, "nv2a", {"output.vertices_per_cycle=1", "vertex_alu.engines=8"});
    CHECK(slow_out.bottleneck_unit != "vertex_alu");
}

// N-way topologies (docs/timing-model.md, "N-way topologies"): split and merge units, several
// vertex ALUs, per-instance parameters in a topology file, and `vpsim why` per instance. Each
// TEST_CASE is one behaviour (one ctest).
#include "model/common/params.h"
#include "model/sc/draw_end_split.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"
#include "model/scene/functional.h"
#include "model/study/why.h"
#include "tests/timing_test_util.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

using namespace vpsim;

namespace {

using test::Captured;
using test::topology_error;
using test::topology_path;
using test::where;

// Runs `s` on `topo` with its own parameters (sc::default_params(topo)) and `sets`.
Captured run_on(const scene::Scene& s, const sc::Topology& topo, const std::vector<std::string>& sets = {}) {
    ParamSet p = sc::default_params(topo);
    for (const auto& kv : sets) p.apply_set(kv);
    Captured c;
    sc::RunOptions opt;
    opt.topology = &topo;
    opt.sink = test::capture_into(c);
    c.result = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
    return c;
}

// The timing model's vertices equal the functional model's (`vpsim scene-exec`), bit for bit.
void check_functional(const scene::Scene& s, const Captured& t) {
    const scene::FunctionalResult f = scene::run_functional(s, vs::Profile::d3d8(), scene::reference_shade());
    REQUIRE(t.result.cycle_errors.empty());
    REQUIRE(t.indices.size() == f.draws.size());
    for (size_t d = 0; d < f.draws.size(); ++d) {
        REQUIRE(t.indices[d] == f.draws[d].indices);
        for (size_t k = 0; k < f.draws[d].vertices.size(); ++k) {
            INFO("draw " << d << " reference " << k);
            REQUIRE(vs::same_bits(t.vertices[d][k], f.draws[d].vertices[k]));
        }
    }
}

std::vector<scene::Scene> example_scenes() {
    std::vector<scene::Scene> v;
    v.push_back(scene::default_scene());
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes"))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 10);  // discovery cannot pass vacuously
    for (const auto& f : files) v.push_back(scene::load_scene(f));
    return v;
}

uint64_t counter(const Captured& c, const std::string& unit, const std::string& name) {
    return c.result.stats["units"][unit]["counters"][name]["value"].get<uint64_t>();
}

// The same, of the value of the first `"key": ` in `text` (where a parameter's message points).
std::string where_value(const std::string& text, const std::string& key) {
    const std::string k = "\"" + key + "\": ";
    const size_t at = text.find(k);
    REQUIRE(at != std::string::npos);
    return where(text.substr(0, at + k.size()) + "@", "@");
}

std::string file_text(const std::string& path) {
    return sc::load_topology_file(path).text;
}

// The two-ALU example with one unit row replaced.
std::string two_alu_with(const std::string& from, const std::string& to) {
    std::string t = file_text(topology_path("two_vertex_alu.json"));
    const size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("Two vertex ALUs shade every example scene with the functional model's vertices", "[nway]") {
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_alu.json"));
    for (const auto& s : example_scenes()) {
        INFO("scene " << s.name);
        const Captured c = run_on(s, two);
        check_functional(s, c);
        // The fetched vertices alternate between the ALUs: every shaded vertex was shaded by one.
        const uint64_t v0 = counter(c, "vertex_alu_0", "vertices"), v1 = counter(c, "vertex_alu_1", "vertices");
        CHECK(v0 + v1 == c.result.count("shaded"));
        CHECK(v0 - v1 <= 1);
    }
}

TEST_CASE("Two vertex ALUs take fewer cycles than one on an ALU-bound scene, with two engines' worth of issue",
          "[nway]") {
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_alu.json"));
    const scene::Scene s = scene::default_scene();
    const Captured one = run_on(s, sc::default_topology());
    const Captured both = run_on(s, two);
    INFO("one ALU: " << one.result.cycles << " cycles, two: " << both.result.cycles);
    CHECK(both.result.cycles < one.result.cycles);
    // The run summary has a line per ALU instance, and none for the built-in topology.
    CHECK(one.result.instances.empty());
    REQUIRE(both.result.instances.size() == 2);
    CHECK(both.result.instances[0].unit == "vertex_alu_0");
    CHECK(both.result.instances[1].unit == "vertex_alu_1");
    CHECK_THAT(both.result.instances[1].text, Catch::Contains("issuing in"));
}

TEST_CASE("A three-way split and merge (ways=3) deal vertices to three ALUs and keep the functional model's vertices",
          "[nway]") {
    const sc::Topology three = sc::load_topology_file(topology_path("three_vertex_alu.json"));
    for (const scene::Scene& s : {scene::default_scene(), scene::load_scene(std::string(VPSIM_SOURCE_DIR) +
                                                                            "/examples/scenes/skinning.json")}) {
        INFO("scene " << s.name);
        const Captured c = run_on(s, three);
        check_functional(s, c);
        const uint64_t v0 = counter(c, "vertex_alu_0", "vertices"), v1 = counter(c, "vertex_alu_1", "vertices"),
                       v2 = counter(c, "vertex_alu_2", "vertices");
        CHECK(v0 + v1 + v2 == c.result.count("shaded"));
        CHECK(v0 >= v1);  // vertex k goes to ALU k mod 3
        CHECK(v1 >= v2);
        CHECK(v0 - v2 <= 1);
        CHECK(c.result.stats["units"]["alu_split"]["cycles"]["stalled"].contains("out2_full"));
        CHECK(c.result.stats["units"]["shaded_merge"]["cycles"]["stalled"].contains("waiting_in2"));
    }
}

TEST_CASE("Two tessellators (draw_split, draw_merge, generated_merge) keep the functional model's vertices", "[nway]") {
    const sc::Topology two = sc::load_topology_file(topology_path("two_tessellator.json"));
    for (const auto& s : example_scenes()) {
        INFO("scene " << s.name);
        const Captured c = run_on(s, two);
        check_functional(s, c);
        CHECK(counter(c, "tess_merge", "draws") == counter(c, "tess_split", "items"));
        CHECK(c.result.count("draws") == counter(c, "tess_split", "items"));
    }
}

TEST_CASE("A draw's job count is dealt as a round-robin job split deals the jobs", "[nway]") {
    // Jobs 0..9 dealt to 3 outputs: 0,3,6,9 / 1,4,7 / 2,5,8.
    CHECK(sc::DrawEndSplit::share(0, 10, 3, 0) == 4);
    CHECK(sc::DrawEndSplit::share(0, 10, 3, 1) == 3);
    CHECK(sc::DrawEndSplit::share(0, 10, 3, 2) == 3);
    // A draw of 2 jobs after 10: jobs 10, 11 go to outputs 1, 2.
    CHECK(sc::DrawEndSplit::share(10, 2, 3, 0) == 0);
    CHECK(sc::DrawEndSplit::share(10, 2, 3, 1) == 1);
    CHECK(sc::DrawEndSplit::share(10, 2, 3, 2) == 1);
    for (uint64_t dealt = 0; dealt < 20; ++dealt)
        for (uint64_t n = 0; n < 20; ++n) {
            uint64_t total = 0;
            for (uint32_t i = 0; i < 4; ++i) total += sc::DrawEndSplit::share(dealt, n, 4, i);
            CHECK(total == n);
        }
}

TEST_CASE("An instance's parameters follow its type's until set for it, and --set reaches the type or one instance",
          "[nway][params]") {
    const sc::Topology t = sc::load_topology_file(topology_path("unequal_vertex_fetch.json"));
    ParamSet p = sc::default_params(t);
    // The file's "params" on vertex_fetch_1; vertex_fetch_0 has the type's values.
    CHECK(p.get_uint("vertex_fetch_1.cache_lines") == 16);
    CHECK(p.get_uint("vertex_fetch_0.cache_lines") == p.get_uint("vertex_fetch.cache_lines"));
    // The type's value moves the instances that have not set it.
    p.apply_set("vertex_fetch.cache_lines=64");
    p.apply_set("vertex_fetch.input_buffers=9");
    CHECK(p.get_uint("vertex_fetch_0.cache_lines") == 64);
    CHECK(p.get_uint("vertex_fetch_1.cache_lines") == 16);
    CHECK(p.get_uint("vertex_fetch_1.input_buffers") == 9);
    // --set on an instance overrides its file value, and only its own.
    p.apply_set("vertex_fetch_1.cache_lines=8");
    CHECK(p.get_uint("vertex_fetch_1.cache_lines") == 8);
    CHECK(p.get_uint("vertex_fetch_0.cache_lines") == 64);
    // What the unit reads: its type's keys holding its own values.
    CHECK(p.for_instance("vertex_fetch_1").get_uint("vertex_fetch.cache_lines") == 8);
    CHECK(p.for_instance("vertex_fetch_0").get_uint("vertex_fetch.cache_lines") == 64);
    // config.json records each instance's resolved values, and reads back the same.
    const auto j = p.to_json();
    CHECK(j["vertex_fetch_1"]["cache_lines"] == 8);
    CHECK(j["vertex_fetch_0"]["cache_lines"] == 64);
    ParamSet q = sc::default_params(t);
    q.apply_json(nlohmann::json::parse(j.dump()));
    CHECK(q.to_json() == j);
}

TEST_CASE("A per-instance parameter in a topology file changes that instance's statistics only", "[nway][params]") {
    const sc::Topology equal = sc::load_topology_file(topology_path("two_vertex_fetch.json"));
    const sc::Topology unequal = sc::load_topology_file(topology_path("unequal_vertex_fetch.json"));
    const scene::Scene s = scene::default_scene();
    const Captured a = run_on(s, equal), b = run_on(s, unequal);
    // The same jobs reach each unit; vertex_fetch_0's cache sees the same requests with the same
    // size, vertex_fetch_1's is half the size.
    CHECK(counter(b, "vertex_fetch_0", "cache_lookups") == counter(a, "vertex_fetch_0", "cache_lookups"));
    CHECK(counter(b, "vertex_fetch_0", "cache_hits") == counter(a, "vertex_fetch_0", "cache_hits"));
    CHECK(counter(b, "vertex_fetch_1", "cache_lookups") == counter(a, "vertex_fetch_1", "cache_lookups"));
    CHECK(counter(b, "vertex_fetch_1", "cache_hits") < counter(a, "vertex_fetch_1", "cache_hits"));
    check_functional(s, b);
}

TEST_CASE("Bad per-instance parameters in a topology file are refused, located in the file", "[nway][params]") {
    const std::string good = "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\"}";
    {  // An unknown parameter: located at its key, the valid keys listed.
        const std::string t = two_alu_with(good, "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\", \"params\": "
                                                 "{\"engines\": 2, \"engins\": 2}}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where_value(t, "engins")) &&
                                          Catch::Contains("vertex_alu_1.engins: unknown parameter; valid keys: "
                                                          "vertex_alu_1.engines"));
    }
    {  // A value of the wrong type.
        const std::string t = two_alu_with(good, "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\", \"params\": "
                                                 "{\"coissue\": 3}}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where_value(t, "coissue")) && Catch::Contains("vertex_alu_1.coissue"));
    }
    {  // Out of range.
        const std::string t = two_alu_with(good, "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\", \"params\": "
                                                 "{\"contexts\": 0}}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where_value(t, "contexts")) && Catch::Contains("[1, 64]"));
    }
    {  // Not an object.
        const std::string t = two_alu_with(good, "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\", \"params\": 4}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "4}")) && Catch::Contains("\"params\" must be an object"));
    }
    {  // A nested value.
        const std::string t = two_alu_with(good, "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\", \"params\": "
                                                 "{\"engines\": [2]}}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "[2]")) && Catch::Contains("got an array"));
    }
    {  // Parameters on a unit whose type has none (a registered type without tables).
        sc::UnitRegistry r = sc::builtin_units();
        sc::UnitType bare;
        bare.name = "bare";
        bare.what = "a unit type without parameters";
        bare.make = [](const sc::UnitContext&) -> std::unique_ptr<sc::TimedUnit> { return nullptr; };
        r.add(bare);
        const std::string t = two_alu_with(good, "{\"name\": \"vertex_alu_1\", \"type\": \"vertex_alu\"}, "
                                                 "{\"name\": \"b\", \"type\": \"bare\", \"params\": {\"x\": 1}}");
        std::string message;
        try {
            sc::param_tables(sc::parse_topology(t, "T.json"), r);
        } catch (const sc::TopologyError& e) {
            message = e.what();
        }
        CHECK_THAT(message, Catch::StartsWith(where(t, "{\"x\"")) && Catch::Contains("unit b: its type bare has no parameters"));
    }
    {  // Parameters on a unit named after its type: they would be every such unit's.
        const std::string t = two_alu_with("{\"name\": \"vertex_fetch\", \"type\": \"vertex_fetch\", \"memory\": \"memory\"}",
                                           "{\"name\": \"vertex_fetch\", \"type\": \"vertex_fetch\", \"memory\": \"memory\", "
                                           "\"params\": {\"queue\": 2}}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "{\"queue\"")) &&
                                          Catch::Contains("named after its type: its parameters are the type's"));
    }
}

TEST_CASE("vpsim why relaxes each instance's parameters, not its type's, when a topology has several", "[nway][why]") {
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_alu.json"));
    const study::Plan plan = study::plan_relaxations(sc::default_params(two), 2.0);
    auto has = [&](const std::string& key) {
        return std::any_of(plan.variants.begin(), plan.variants.end(),
                           [&](const study::Relaxation& r) { return r.key == key; });
    };
    CHECK(has("vertex_alu_0.contexts"));
    CHECK(has("vertex_alu_1.contexts"));
    CHECK_FALSE(has("vertex_alu.contexts"));
    CHECK(has("vertex_fetch.input_buffers"));  // a type with one unit named after it: as before
    // The built-in topology's plan is unchanged: type keys only.
    const study::Plan builtin = study::plan_relaxations(sc::default_params(), 2.0);
    CHECK(std::any_of(builtin.variants.begin(), builtin.variants.end(),
                      [](const study::Relaxation& r) { return r.key == "vertex_alu.contexts"; }));
}

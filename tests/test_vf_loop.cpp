// The vertex fetch RTL in the loop (model/sc/rtl_vertex_fetch.h, `vpsim run --rtl vertex_fetch`):
// the Verilated rtl/vertex_fetch.sv inside the full pipeline, on every scene under
// examples/scenes/ and every workload under examples/workloads/ (one test case each, found at
// start-up) and the built-in default scene:
//   * every vertex it gives is checked against the golden fetch inside the run, and the run emits
//     the model run's vertices;
//   * the SystemC model VertexFetch with sc::vf::rtl_timing_params() has the RTL's timing exactly:
//     the same cycle count, every other unit's statistics the same, and the vertex fetch counters
//     both count (requests, bytes, words looked up, hit, read, footprint) the same;
//   * the same under random memory latency, bus width, input buffers, job queue and engines
//     (seeded: VPSIM_TEST_SEED replays), with the RTL declaration decoder in the loop too, and
//     in a topology with two vertex fetch units (an RTL instance each);
//   * a design that gets one register of one vertex wrong stops the run naming the draw, the
//     vertex and the register.
#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/sc/topology.h"
#include "model/scene/default_scene.h"
#include "model/scene/scene.h"
#include "model/sc/rtl_decl_decoder.h"
#include "model/sc/rtl_in_loop.h"
#include "model/sc/rtl_vertex_fetch.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <random>
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
};

enum class Fetch { model, model_rtl_timing, rtl };

// A scene's run with the given vertex fetch; `sets` after the scene's own.
Captured run(const scene::Scene& s, Fetch f, std::vector<std::string> sets = {}, bool rtl_decoder = false,
             const sc::UnitFactory* fetch = nullptr, const sc::Topology* topology = nullptr) {
    ParamSet p = sc::default_params();
    if (f == Fetch::model_rtl_timing)
        for (const auto& kv : sc::vf::rtl_timing_params()) p.apply_set(kv);
    for (const auto& kv : sets) p.apply_set(kv);
    Captured c;
    sc::RunOptions opt;
    opt.sink = [&c](const sc::DrawState& d, uint64_t ref, uint32_t index, const vs::VertexOutputs& o) {
        c.vertices.push_back({d.id, ref, index, o});
    };
    sc::UnitRegistry units = sc::builtin_units();
    if (f == Fetch::rtl) sc::use_rtl(units, opt, "vertex_fetch", fetch ? *fetch : sc::vf::builtin_loop_unit());
    if (rtl_decoder) sc::use_rtl(units, opt, "decl_decoder", sc::rtl_decl_decoder_unit());
    opt.topology = topology;
    c.result = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
    return c;
}

const nlohmann::ordered_json& counter(const nlohmann::ordered_json& units, const char* unit, const char* name) {
    return units[unit]["counters"][name]["value"];
}

void same_vertices(const Captured& a, const Captured& b) {
    REQUIRE(a.vertices.size() == b.vertices.size());
    for (size_t k = 0; k < a.vertices.size(); ++k) {
        const Emitted &x = a.vertices[k], &y = b.vertices[k];
        INFO("vertex " << k << ": draw " << x.draw << " reference " << x.ref);
        REQUIRE(y.draw == x.draw);
        REQUIRE(y.ref == x.ref);
        REQUIRE(y.index == x.index);
        REQUIRE(vs::same_bits(y.outputs, x.outputs));
    }
}

// The RTL run against the model with the RTL's timing: cycles, every other unit's statistics and
// the vertex fetch counters both have.
void same_timing(const Captured& rtl, const Captured& eq) {
    CHECK(rtl.result.cycle_errors.empty());
    CHECK(eq.result.cycle_errors.empty());
    REQUIRE(rtl.result.cycles == eq.result.cycles);
    const auto &ru = rtl.result.stats["units"], &eu = eq.result.stats["units"];
    for (const auto& [unit, g] : ru.items()) {
        if (unit == "vertex_fetch") continue;
        INFO("unit " << unit);
        CHECK(g == eu[unit]);
    }
    for (const char* c : {"vertices", "requests", "bytes", "cache_lookups", "cache_hits", "cache_misses", "fill_bytes",
                          "footprint_bytes"}) {
        INFO("vertex_fetch." << c);
        CHECK(counter(ru, "vertex_fetch", c) == counter(eu, "vertex_fetch", c));
    }
}

void check_scene(const scene::Scene& s, const std::vector<std::string>& sets = {}) {
    INFO("scene " << s.name);
    const Captured rtl = run(s, Fetch::rtl, sets);
    const Captured eq = run(s, Fetch::model_rtl_timing, sets);
    const Captured model = run(s, Fetch::model, sets);
    // The RTL unit ran (its group says so) and checked every vertex it fetched.
    const auto& g = rtl.result.stats["units"]["vertex_fetch"];
    CHECK(g["description"].get<std::string>().find("RTL rtl/vertex_fetch.sv") != std::string::npos);
    CHECK(counter(rtl.result.stats["units"], "vertex_fetch", "vertices") ==
          counter(model.result.stats["units"], "vertex_fetch", "vertices"));
    same_vertices(model, rtl);
    same_timing(rtl, eq);
}

std::vector<std::filesystem::path> files_under(const std::string& dir, bool recursive) {
    std::vector<std::filesystem::path> v;
    const std::filesystem::path root = std::filesystem::path(VPSIM_SOURCE_DIR) / dir;
    auto add = [&](const std::filesystem::directory_entry& e) {
        if (e.is_regular_file() && e.path().extension() == ".json") v.push_back(e.path());
    };
    if (recursive)
        for (const auto& e : std::filesystem::recursive_directory_iterator(root)) add(e);
    else
        for (const auto& e : std::filesystem::directory_iterator(root)) add(e);
    std::sort(v.begin(), v.end());
    return v;
}

// Scenes a preset's caps refuse run with the caps they need (examples/workloads/README.md).
std::vector<std::string> scene_sets(const std::filesystem::path& f) {
    if (f.filename() == "ff_blend_indexed.json") return {"fixed_function.max_vertex_blend_matrix_index=3"};
    return {};
}

struct SceneCase : Catch::ITestInvoker {
    std::filesystem::path path;
    explicit SceneCase(std::filesystem::path p) : path(std::move(p)) {}
    void invoke() const override { check_scene(scene::load_scene(path.string()), scene_sets(path)); }
};

const size_t registered = [] {
    static std::deque<std::string> names;  // the test cases' names outlive the registry's use of them
    const std::filesystem::path src(VPSIM_SOURCE_DIR);
    size_t n = 0;
    for (const auto& [dir, recursive] : {std::pair<const char*, bool>{"examples/scenes", true}, {"examples/workloads", false}})
        for (const auto& f : files_under(dir, recursive)) {
            names.push_back("RTL vertex_fetch in the pipeline: the model's vertices, and the model with the RTL's "
                            "timing parameters has its cycles: " +
                            f.lexically_relative(src).generic_string());
            Catch::AutoReg(new SceneCase(f), CATCH_INTERNAL_LINEINFO, Catch::StringRef(),
                           Catch::NameAndTags{names.back(), "[vf]"});
            ++n;
        }
    return n;
}();

// A design that is the built-in one except for one bit of one register of one vertex.
class OneWrongBit : public rtl::vf::Pins {
public:
    OneWrongBit(uint64_t vertex, uint32_t word) : rtl_(rtl::vf::builtin_vertex_fetch()), vertex_(vertex), word_(word) {}
    void set_inputs(const rtl::vf::Inputs& in, bool layout_changed) override {
        out_ready_ = in.out_ready;
        rtl_->set_inputs(in, layout_changed);
    }
    void outputs(rtl::vf::Outputs& o, bool regs) const override {
        rtl_->outputs(o, regs);
        if (regs && seen_ == vertex_) o.out_regs[word_] ^= 1u;
    }
    void clock() override {
        rtl::vf::Outputs o;
        rtl_->outputs(o, false);
        if (o.out_valid && out_ready_) ++seen_;
        rtl_->clock();
    }
    void reset() override { rtl_->reset(); }
    bool broken() const override { return rtl_->broken(); }
    void clear_error() override { rtl_->clear_error(); }

private:
    std::unique_ptr<rtl::vf::Pins> rtl_;
    uint64_t vertex_;
    uint32_t word_;
    uint64_t seen_ = 0;
    bool out_ready_ = false;
};

}  // namespace

TEST_CASE("The example scenes and workloads are found", "[vf]") {
    CHECK(registered >= 30);
}

TEST_CASE("RTL vertex_fetch in the pipeline: the built-in default scene", "[vf]") {
    check_scene(scene::default_scene());
}

TEST_CASE("RTL vertex_fetch in the pipeline: the model with the RTL's timing has its cycles under random "
          "memory, buffers, queues and engines",
          "[vf]") {
    const uint64_t seed = test_seed("vf loop random parameters");
    std::mt19937_64 rng(seed);
    const scene::Scene skin = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/skinning.json");
    const scene::Scene mixed = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/ff_mixed.json");
    for (int k = 0; k < 6; ++k) {
        auto pick = [&](std::vector<uint32_t> v) { return v[rng() % v.size()]; };
        const std::vector<std::string> sets = {
            "memory.latency=" + std::to_string(pick({0, 1, 2, 7, 40, 80, 300})),
            "memory.bytes_per_cycle=" + std::to_string(pick({1, 3, 8, 16, 36, 64})),
            "vertex_fetch.input_buffers=" + std::to_string(pick({1, 2, 6, 12})),
            "vertex_fetch.queue=" + std::to_string(pick({1, 4, 16})),
            "vertex_alu.engines=" + std::to_string(pick({1, 2, 4}))};
        const scene::Scene& s = k % 2 ? mixed : skin;
        INFO("seed " << seed << ", run " << k << ": " << s.name << " with " << sets[0] << " " << sets[1] << " " << sets[2]
                     << " " << sets[3] << " " << sets[4]);
        same_timing(run(s, Fetch::rtl, sets), run(s, Fetch::model_rtl_timing, sets));
    }
}

TEST_CASE("RTL decl_decoder and vertex_fetch in the pipeline together: the model with the RTL's timing has its cycles",
          "[vf]") {
    const scene::Scene s = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/ff_declaration.json");
    const Captured both = run(s, Fetch::rtl, {}, true);
    const Captured eq = run(s, Fetch::model_rtl_timing);
    same_timing(both, eq);
    CHECK(both.result.stats["units"]["decl_decoder"] == eq.result.stats["units"]["decl_decoder"]);
    same_vertices(eq, both);
}

TEST_CASE("RTL vertex_fetch in a pipeline with two vertex fetch units: an RTL instance each, the model's timing equal",
          "[vf]") {
    const sc::Topology two =
        sc::load_topology_file(std::string(VPSIM_SOURCE_DIR) + "/examples/topologies/two_vertex_fetch.json");
    const scene::Scene s = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/skinning.json");
    const Captured rtl = run(s, Fetch::rtl, {}, false, nullptr, &two);
    const Captured eq = run(s, Fetch::model_rtl_timing, {}, false, nullptr, &two);
    REQUIRE(rtl.result.cycles == eq.result.cycles);
    size_t rtl_groups = 0;
    for (const auto& [unit, g] : rtl.result.stats["units"].items()) {
        INFO("unit " << unit);
        if (g["description"].get<std::string>().find("RTL rtl/vertex_fetch.sv") != std::string::npos) {
            ++rtl_groups;
            CHECK(g["counters"]["requests"]["value"] == eq.result.stats["units"][unit]["counters"]["requests"]["value"]);
            CHECK(g["counters"]["cache_misses"]["value"] ==
                  eq.result.stats["units"][unit]["counters"]["cache_misses"]["value"]);
        } else {
            CHECK(g == eq.result.stats["units"][unit]);
        }
    }
    CHECK(rtl_groups == 2);
    same_vertices(eq, rtl);
}

TEST_CASE("RTL vertex_fetch in the pipeline: a wrong register stops the run naming the draw, vertex and register",
          "[vf]") {
    const scene::Scene s = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/skinning.json");
    // Vertex 37 out of the unit, v2's y (word 4 * 2 + 1).
    const sc::UnitFactory fetch =
        sc::vf::loop_unit([] { return std::make_unique<OneWrongBit>(37, 9); }, "one wrong bit");
    CHECK_THROWS_AS(run(s, Fetch::rtl, {}, false, &fetch), sc::vf::LoopMismatch);
    CHECK_THROWS_WITH(run(s, Fetch::rtl, {}, false, &fetch),
                      Catch::Contains("RTL vertex_fetch (one wrong bit): draw 0 (/commands/") &&
                          Catch::Contains("v2 is (") && Catch::Contains("the golden fetch_vertex gives"));
}

TEST_CASE("The loop's layout: the model's element order, registers loaded again later dropped", "[vf]") {
    using namespace decl;
    // Stream 0 selected twice (lenient): the model requests stream 0's elements (v0, v5) and then
    // stream 1's (v3, v0), not the declaration's order; v0 is loaded again by the later color, v3
    // by the tessellator after its element.
    DecoderOptions o;
    o.lenient = true;
    o.diagnostics = false;
    const Declaration d = decode({D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM(1),
                                  D3DVSD_REG(3, D3DVSDT_FLOAT2), D3DVSD_REG(0, D3DVSDT_D3DCOLOR), D3DVSD_STREAM(0),
                                  D3DVSD_REG(5, D3DVSDT_SHORT2), D3DVSD_STREAM_TESS(), D3DVSD_TESSUV(3), D3DVSD_END()},
                                 o);
    REQUIRE(d.valid);
    const auto w = sc::vf::loop_layout(d);
    REQUIRE(w.size() == 4);
    auto reg = [](uint32_t e) { return e >> 3 & 31; };
    auto stream = [](uint32_t e) { return e >> 8 & 15; };
    auto offset = [](uint32_t e) { return e >> 12; };
    CHECK((stream(w[0]) == 0 && reg(w[0]) == 31 && (w[0] & 7) == D3DVSDT_FLOAT3));  // v0: loaded again later
    CHECK((stream(w[1]) == 0 && reg(w[1]) == 5 && offset(w[1]) == 0));
    CHECK((stream(w[2]) == 1 && reg(w[2]) == 31 && offset(w[2]) == 0));  // v3: the tessellator's
    CHECK((stream(w[3]) == 1 && reg(w[3]) == 0 && offset(w[3]) == 8 && (w[3] & 7) == D3DVSDT_D3DCOLOR));
    CHECK(sc::vf::loop_loaded(d) == 0x21u);
}

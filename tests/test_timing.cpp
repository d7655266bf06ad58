// The timing model (model/sc/pipeline.h): its vertices against the functional model on every
// example scene, timing behaviours with known answers, and the statistics' bookkeeping.
#include "model/common/params.h"
#include "model/pipe/post_transform_cache.h"
#include "model/sc/output_unit.h"
#include "model/sc/pipeline.h"
#include "model/sc/timed_unit.h"
#include "model/scene/default_scene.h"
#include "model/scene/functional.h"
#include "tests/test_seed.h"
#include "tests/timing_test_util.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <deque>
#include <filesystem>
#include <functional>
#include <fstream>
#include <map>
#include <random>
#include <sstream>
#include <string>
#include <variant>
#include <vector>

using namespace vpsim;

namespace {

using test::Captured;
using test::topology_error;
using test::topology_path;
using test::where;

Captured run(const scene::Scene& s, const std::vector<std::string>& sets = {}) {
    ParamSet p = vpsim::sc::default_params();
    for (const auto& kv : sets) p.apply_set(kv);
    Captured c;
    sc::RunOptions opt;
    opt.sink = test::capture_into(c);
    c.result = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
    CHECK_FALSE(c.out_of_order);
    return c;
}

// Compares the timing model's vertices with the functional model's, bit for bit.
void check_equivalent(const scene::Scene& s, const std::vector<std::string>& sets) {
    INFO("scene " << s.name << ", settings " << fmt::format("{}", fmt::join(sets, " ")));
    const scene::FunctionalResult f = scene::run_functional(s, vs::Profile::d3d8(), scene::reference_shade());
    const Captured t = run(s, sets);
    REQUIRE(t.result.cycle_errors.empty());
    REQUIRE(t.indices.size() == f.draws.size());
    uint64_t refs = 0;
    for (size_t d = 0; d < f.draws.size(); ++d) {
        REQUIRE(t.indices[d] == f.draws[d].indices);
        size_t first_bad = f.draws[d].vertices.size();
        for (size_t k = 0; k < f.draws[d].vertices.size() && first_bad == f.draws[d].vertices.size(); ++k)
            if (!vs::same_bits(t.vertices[d][k], f.draws[d].vertices[k])) first_bad = k;
        INFO("draw " << d << ": first differing reference " << first_bad);
        CHECK(first_bad == f.draws[d].vertices.size());
        refs += f.draws[d].vertices.size();
    }
    CHECK(t.result.count("references") == refs);
}

std::vector<scene::Scene> example_scenes() {
    std::vector<scene::Scene> v;
    v.push_back(scene::default_scene());
    std::vector<std::string> files;
    // Every scene file under examples/scenes/, subdirectories included.
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes"))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    REQUIRE(files.size() >= 10);  // 5 in examples/scenes/, 5 in patches/: discovery cannot pass vacuously
    for (const auto& f : files) v.push_back(scene::load_scene(f));
    return v;
}

// A scene of `n` points through one stream and the given vs.1.1 program: v0 (FLOAT4), and with
// `two_inputs` also v1 (FLOAT4). Constants c0, c1 are set; `extra_commands` go before the draw.
scene::Scene point_scene(uint32_t n, const std::string& program, const std::string& extra_commands = "",
                         bool two_inputs = false) {
    std::string verts;
    for (uint32_t i = 0; i < n; ++i) {
        verts += fmt::format("{}[{}, {}, 0.5, 1", i ? ", " : "", float(i % 17) * 0.25f, float(i % 5) - 1.0f);
        if (two_inputs) verts += fmt::format(", {}, 1, 2, 3", float(i % 7));
        verts += "]";
    }
    const std::string text = fmt::format(R"JSON({{
      "buffers": {{"pts": {{"layout": [{}], "vertices": [{}]}}}},
      "commands": [
        {{"op": "CreateVertexShader", "name": "s",
          "declaration": {{"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT4), {} D3DVSD_END()"}},
          "function": {{"asm": {}}}}},
        {{"op": "SetVertexShader", "shader": "s"}},
        {{"op": "SetVertexShaderConstant", "register": 0, "values": [[1, 2, 3, 4], [0.5, 0.25, 2, 1]]}},
        {{"op": "SetStreamSource", "stream": 0, "buffer": "pts", "stride": {}}},
        {}
        {{"op": "DrawPrimitive", "type": "pointlist", "start_vertex": 0, "primitive_count": {}}}
      ]}})JSON",
                                         two_inputs ? "\"FLOAT4\", \"FLOAT4\"" : "\"FLOAT4\"", verts,
                                         two_inputs ? "D3DVSD_REG(1, D3DVSDT_FLOAT4)," : "",
                                         nlohmann::json(program).dump(), two_inputs ? 32 : 16, extra_commands, n);
    return scene::parse_scene(nlohmann::json::parse(text), "", "<test>");
}

// Settings that keep the fetch side out of the way of ALU measurements.
const std::vector<std::string> kFastFetch = {"memory.latency=1", "vertex_fetch.fetch_window=64",
                                             "vertex_fetch.max_misses=64"};
std::vector<std::string> with_fast_fetch(std::vector<std::string> v) {
    v.insert(v.end(), kFastFetch.begin(), kFastFetch.end());
    return v;
}

double cycles_per_vertex(const Captured& c) { return double(c.result.cycles) / double(c.result.count("shaded")); }

// A VCD written by a run (model/sc/probes.cpp), read back: each signal's value changes as
// (cycle, value), by "scope.name" (scopes as in the file: dots became underscores).
using Records = std::vector<std::pair<uint64_t, uint64_t>>;
struct Vcd {
    std::map<std::string, Records> signals;
    const Records& at(const std::string& name) const {
        const auto it = signals.find(name);
        INFO("VCD signal " << name);
        REQUIRE(it != signals.end());
        return it->second;
    }
    uint64_t last(const std::string& name) const { return at(name).empty() ? 0 : at(name).back().second; }
};
std::string vcd_scope(std::string name) {
    std::replace(name.begin(), name.end(), '.', '_');
    return name;
}
Vcd read_vcd(const std::string& path, uint64_t period_ps) {
    std::ifstream in(path);
    REQUIRE(in);
    Vcd v;
    std::map<std::string, Records*> by_code;
    std::string line, scope;
    uint64_t cycle = 0;
    bool initial = false;  // inside $dumpvars: the declared initial values, not changes
    while (std::getline(in, line)) {
        if (line.empty()) continue;
        if (line.rfind("$scope module ", 0) == 0) {
            scope = line.substr(14, line.find(" $end") - 14);
        } else if (line.rfind("$var wire ", 0) == 0) {
            std::istringstream is(line.substr(10));
            int width = 0;
            std::string code, name;
            is >> width >> code >> name;
            by_code[code] = &v.signals[scope + "." + name];
        } else if (line == "$dumpvars") {
            initial = true;
        } else if (line == "$end") {
            initial = false;
        } else if (line[0] == '#') {
            const uint64_t ps = std::stoull(line.substr(1));
            if (ps % period_ps || ps / period_ps < cycle) FAIL("VCD time " << line << " is not a later cycle");
            cycle = ps / period_ps;
        } else if (line[0] != '$' && !initial) {
            uint64_t value = 0;
            std::string code;
            if (line[0] == 'b') {
                const size_t sp = line.find(' ');
                value = std::stoull(line.substr(1, sp - 1), nullptr, 2);
                code = line.substr(sp + 1);
            } else {
                value = line[0] == '1';
                code = line.substr(1);
            }
            Records& r = *by_code.at(code);
            if (!r.empty() && r.back().first >= cycle) FAIL("VCD: two values of one signal at cycle " << cycle);
            r.push_back({cycle, value});
        }
    }
    return v;
}
// A set of cycles [0, end).
struct CycleMarks {
    explicit CycleMarks(uint64_t end) : marked(end, false) {}
    // The cycles at which a signal changed (a count changed: at least one handshake).
    void records(const Records& r) {
        for (const auto& [t, value] : r) mark(t);
    }
    // The cycles at which a signal held a nonzero value (it holds between changes).
    void nonzero(const Records& r) {
        for (size_t i = 0; i < r.size(); ++i)
            if (r[i].second)
                for (uint64_t t = r[i].first; t < (i + 1 < r.size() ? r[i + 1].first : marked.size()); ++t) mark(t);
    }
    void mark(uint64_t t) {
        if (t >= marked.size()) FAIL("cycle " << t << " is past the run's " << marked.size() << " cycles");
        marked[size_t(t)] = true;
    }
    uint64_t count() const { return uint64_t(std::count(marked.begin(), marked.end(), true)); }
    std::vector<bool> marked;
};

}  // namespace

TEST_CASE("The timing model's vertices are bit-identical to the functional model on every example scene", "[timing]") {
    for (const auto& s : example_scenes()) check_equivalent(s, {});
}

TEST_CASE("The timing model stays bit-identical under small queues, two engines and every co-issue policy", "[timing]") {
    const std::vector<std::vector<std::string>> configs = {
        {"vertex_alu.coissue=off"},
        {"vertex_alu.coissue=pairs", "vertex_alu.engines=2", "vertex_alu.contexts=1"},
        {"output.order_queue=1", "output.buffers=1", "vertex_fetch.input_buffers=1", "vertex_fetch.fetch_window=1",
         "vertex_fetch.queue=1", "index_fetch.draw_queue=1", "constant_loader.queue=1"},
        {"post_transform_cache.entries=0"},
        {"post_transform_cache.entries=4", "post_transform_cache.batch_reset=7", "vertex_fetch.cache_lines=1",
         "vertex_fetch.max_misses=1", "memory.latency=300", "memory.bytes_per_cycle=1"},
        {"vertex_alu.engines=3", "vertex_alu.contexts=5", "vertex_alu.window=32", "vertex_fetch.elements_per_cycle=4",
         "index_fetch.indices_per_cycle=4", "output.vertices_per_cycle=4", "pipeline.quantum=1"},
    };
    for (const auto& s : example_scenes())
        for (const auto& c : configs) check_equivalent(s, c);
}

TEST_CASE("Every unit's busy cycles are exactly the cycles it did work in, counted from its handshakes in the VCD",
          "[timing]") {
    // Each unit's busy count (its CycleAccount) against the work the VCD shows it doing, cycle by
    // cycle (the channels' push and pop counts, the ALU's issue signal, the fetch's requests):
    //   output        emits references and draw ends, each a pop from its order queue;
    //   index fetch   reads a reference or sends a draw's end, each a push to the order queue;
    //   vertex fetch  issues an element request or sends a vertex to the ALU;
    //   vertex ALU    takes a vertex (a pop), retires one (a push) or issues a slot (issue != 0);
    //   decoder       accepts a token or delivers an event: with the front end always ready, a
    //                 declaration of n tokens is n + 1 clocks (the END leaves one clock later).
    const std::vector<std::vector<std::string>> configs = {
        {},
        {"vertex_alu.engines=2", "vertex_alu.contexts=2", "vertex_alu.coissue=pairs", "index_fetch.indices_per_cycle=4",
         "output.vertices_per_cycle=3", "output.order_queue=6", "output.buffers=2", "vertex_fetch.elements_per_cycle=2",
         "vertex_fetch.queue=2", "vertex_fetch.max_misses=2", "memory.latency=40"},
    };
    const std::string vcd = (std::filesystem::temp_directory_path() /
                             fmt::format("vpsim_test_busy_{}.vcd", std::random_device{}()))
                                .string();
    const sc::Topology topo = sc::default_topology();
    auto link = [&topo](const std::string& from, const std::string& to) {
        std::string name;
        for (const auto& l : topo.links)
            if (l.from == from && l.to == to) name = vcd_scope(l.name);
        INFO("link " << from << " -> " << to);
        REQUIRE(!name.empty());
        return name;
    };
    const std::string order = link("index_fetch.order", "output.order");
    const std::string to_alu = link("vertex_fetch.out", "vertex_alu.in");
    const std::string alu_out = link("vertex_alu.out", "output.shaded");
    size_t checked = 0;
    for (const auto& s : example_scenes())
        for (const auto& sets : configs) {
            INFO("scene " << s.name << ", settings " << fmt::format("{}", fmt::join(sets, " ")));
            ParamSet p = vpsim::sc::default_params();
            for (const auto& kv : sets) p.apply_set(kv);
            sc::RunOptions opt;
            opt.vcd_path = vcd;
            const sc::RunResult r = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
            REQUIRE(r.cycle_errors.empty());
            const Vcd v = read_vcd(vcd, uint64_t(std::llround(1e6 / r.clock_mhz)));
            std::filesystem::remove(vcd);
            const auto& units = r.stats["units"];
            auto busy = [&units](const char* unit) { return units[unit]["cycles"]["busy"].get<uint64_t>(); };
            auto counter = [&units](const char* unit, const char* name) {
                return units[unit]["counters"][name]["value"].get<uint64_t>();
            };

            CycleMarks output(r.cycles);
            output.records(v.at(order + ".pops"));
            CHECK(v.last(order + ".pops") == counter("output", "vertices") + counter("output", "draws"));
            CHECK(busy("output") == output.count());

            CycleMarks index(r.cycles);
            index.records(v.at(order + ".pushes"));
            CHECK(v.last(order + ".pushes") == counter("index_fetch", "references") + r.count("draws"));
            CHECK(busy("index_fetch") == index.count());

            CycleMarks fetch(r.cycles);
            fetch.records(v.at("vertex_fetch.requests"));
            fetch.records(v.at(to_alu + ".pushes"));
            CHECK(v.last("vertex_fetch.requests") == counter("vertex_fetch", "requests"));
            CHECK(busy("vertex_fetch") == fetch.count());

            CycleMarks alu(r.cycles);
            alu.records(v.at(to_alu + ".pops"));
            alu.records(v.at(alu_out + ".pushes"));
            size_t engines = 0;
            for (const auto& [name, records] : v.signals)
                if (name.rfind("vertex_alu_e", 0) == 0 && name.size() > 6 && name.substr(name.size() - 6) == ".issue") {
                    alu.nonzero(records);
                    ++engines;
                }
            CHECK(engines == p.get_uint("vertex_alu.engines"));
            CHECK(v.last(alu_out + ".pushes") == counter("vertex_alu", "vertices"));
            CHECK(busy("vertex_alu") == alu.count());

            uint64_t decode_clocks = 0, tokens = 0;
            for (const auto& c : s.commands)
                if (const auto* cv = std::get_if<scene::CreateVertexShader>(&c.body)) {
                    decode_clocks += cv->declaration.size() + 1;
                    tokens += cv->declaration.size();
                }
            CHECK(counter("decl_decoder", "tokens") == tokens);
            CHECK(busy("decl_decoder") == decode_clocks);
            ++checked;
        }
    CHECK(checked >= 2 * 11);  // the built-in default scene and >= 10 files, in both configurations
}

TEST_CASE("A one-instruction program on one engine with one vertex in flight costs the latency per vertex", "[timing]") {
    const scene::Scene s = point_scene(400, "vs.1.1\nmov oPos, v0\n");
    std::vector<double> cpv;
    for (unsigned lat : {2u, 5u, 9u}) {
        const Captured c =
            run(s, with_fast_fetch({"vertex_alu.contexts=1", fmt::format("vertex_alu.vector_latency={}", lat)}));
        cpv.push_back(cycles_per_vertex(c));
        INFO("latency " << lat << ": " << cpv.back() << " cycles per vertex");
        // The latency plus the cycle the vertex enters its context.
        CHECK(cpv.back() >= lat + 1.0);
        CHECK(cpv.back() <= lat + 1.1);
    }
    CHECK(cpv[2] - cpv[1] == Approx(4.0).margin(0.05));
}

TEST_CASE("With as many vertices in flight as the latency, a dependent chain issues about one slot per cycle", "[timing]") {
    std::string prog = "vs.1.1\nmov r0, v0\n";
    for (int i = 0; i < 15; ++i) prog += "add r0, r0, c1\n";
    prog += "mov oPos, r0\n";
    const scene::Scene s = point_scene(300, prog);
    const Captured one = run(s, with_fast_fetch({"vertex_alu.contexts=1", "vertex_alu.vector_latency=4"}));
    const Captured four = run(s, with_fast_fetch({"vertex_alu.contexts=4", "vertex_alu.vector_latency=4"}));
    const double spc1 = one.result.stats["units"]["vertex_alu"]["rates"]["slots_per_cycle"]["value"].get<double>();
    const double spc4 = four.result.stats["units"]["vertex_alu"]["rates"]["slots_per_cycle"]["value"].get<double>();
    INFO("slots per cycle: K=1 " << spc1 << ", K=4 " << spc4);
    CHECK(spc1 < 0.27);  // one slot per latency
    CHECK(spc4 > 0.95);
    CHECK(four.result.real("alu_utilisation") > 0.95);
}

TEST_CASE("Co-issue on alternating independent vector and scalar ops approaches twice the speed", "[timing]") {
    std::string prog = "vs.1.1\n";
    for (int i = 0; i < 16; ++i)
        prog += fmt::format("add r{}, v0, c0\nexpp r{}, v0.x\n", (2 * i) % 10, (2 * i + 1) % 10);
    prog += "mov oPos, v0\n";
    const scene::Scene s = point_scene(300, prog);
    const Captured off = run(s, with_fast_fetch({"vertex_alu.coissue=off"}));
    const Captured pairs = run(s, with_fast_fetch({"vertex_alu.coissue=pairs"}));
    const Captured window = run(s, with_fast_fetch({"vertex_alu.coissue=window"}));
    const double ratio = double(off.result.cycles) / double(pairs.result.cycles);
    INFO("cycles: off " << off.result.cycles << ", pairs " << pairs.result.cycles << ", window "
                        << window.result.cycles << "; ratio " << ratio);
    CHECK(ratio > 1.85);
    CHECK(ratio <= 2.0);
    CHECK(pairs.result.real("coissue_rate") > 0.9);
    CHECK(off.result.real("coissue_rate") == 0.0);
    CHECK(window.result.cycles <= pairs.result.cycles);
}

TEST_CASE("The port limit keeps a co-issued pair from reading two different input registers", "[timing]") {
    std::string prog = "vs.1.1\n";
    for (int i = 0; i < 8; ++i) prog += fmt::format("add r{}, v0, c0\nexpp r{}, v1.x\n", 2 * i % 10, (2 * i + 1) % 10);
    prog += "mov oPos, v0\n";
    const scene::Scene s = point_scene(100, prog, "", true);
    const Captured limited = run(s, with_fast_fetch({"vertex_alu.coissue=pairs", "vertex_alu.port_limit=true"}));
    const Captured free = run(s, with_fast_fetch({"vertex_alu.coissue=pairs", "vertex_alu.port_limit=false"}));
    INFO("co-issue rate: limited " << limited.result.real("coissue_rate") << ", free " << free.result.real("coissue_rate"));
    CHECK(limited.result.real("coissue_rate") == 0.0);
    CHECK(free.result.real("coissue_rate") == Approx(8.0 / 9.0));
}

TEST_CASE("A regular grid drawn as an indexed list gives ACMR 3 with the cache off and the cache's figure with 24 entries", "[timing]") {
    const std::string text = R"JSON({
      "buffers": {"g": {"generator": "grid", "columns": 8, "rows": 8,
                         "streams": {"p": [{"attribute": "position", "type": "FLOAT3"}]}}},
      "commands": [
        {"op": "CreateVertexShader", "name": "s",
         "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"},
         "function": {"asm": "vs.1.1\nmov oPos, v0\n"}},
        {"op": "SetVertexShader", "shader": "s"},
        {"op": "SetStreamSource", "stream": 0, "buffer": "g.p", "stride": 12},
        {"op": "SetIndices", "buffer": "g.indices"},
        {"op": "DrawIndexedPrimitive", "type": "trianglelist"}
      ]})JSON";
    const scene::Scene s = scene::parse_scene(nlohmann::json::parse(text), "", "<grid>");
    const Captured off = run(s, {"post_transform_cache.entries=0"});
    CHECK(off.result.real("acmr") == 3.0);
    CHECK(off.result.count("shaded") == 3u * 128u);
    const Captured on = run(s);
    const auto f = scene::run_functional(s, vs::Profile::d3d8());
    const pipe::VertexReuse expect =
        pipe::measure_vertex_reuse(f.draws[0].indices, pipe::PrimitiveType::TriangleList, pipe::PostTransformCacheParams{});
    INFO("ACMR with 24 entries: " << on.result.real("acmr"));
    CHECK(on.result.count("shaded") == expect.shaded);
    CHECK(on.result.real("acmr") == Approx(expect.acmr));
    CHECK(on.result.real("acmr") >= 0.5);
    CHECK(on.result.real("acmr") < 1.0);
    CHECK(on.result.real("atvr") == Approx(expect.atvr));
}

TEST_CASE("More memory latency changes throughput little when enough vertices are fetched at once", "[timing]") {
    const scene::Scene s = scene::default_scene();
    const Captured fast = run(s, {"vertex_fetch.fetch_window=64", "vertex_fetch.max_misses=32", "output.order_queue=256", "memory.latency=50"});
    const Captured slow = run(s, {"vertex_fetch.fetch_window=64", "vertex_fetch.max_misses=32", "output.order_queue=256", "memory.latency=400"});
    const double ratio = double(slow.result.cycles) / double(fast.result.cycles);
    INFO("cycles at latency 50: " << fast.result.cycles << ", at 400: " << slow.result.cycles << ", ratio " << ratio);
    CHECK(ratio < 1.02);
    // With one vertex fetched at a time the same latency costs a lot: the test can tell.
    const Captured narrow = run(s, {"vertex_fetch.fetch_window=1", "memory.latency=400"});
    CHECK(double(narrow.result.cycles) / double(fast.result.cycles) > 1.5);
}

TEST_CASE("A constant write waits for the draws before it and the draws after it see it", "[timing]") {
    const std::string second = R"({"op": "DrawPrimitive", "type": "pointlist", "start_vertex": 0, "primitive_count": 40},
        {"op": "SetVertexShaderConstant", "register": 0, "values": [[9, 8, 7, 6]]},)";
    const scene::Scene s = point_scene(40, "vs.1.1\nadd oPos, v0, c0\n", second);
    check_equivalent(s, {});
    const Captured c = run(s);
    const auto& loader = c.result.stats["units"]["constant_loader"];
    CHECK(loader["cycles"]["stalled"]["draw_in_flight"]["cycles"].get<uint64_t>() > 0);
    CHECK(c.result.count("draws") == 2);
    // The two draws' first vertices differ by the new constant.
    CHECK(c.vertices[0][0].pos[0] != c.vertices[1][0].pos[0]);
}

TEST_CASE("Fixed-function draws: the driver's constant writes go through the constant loader, after the draws before them",
          "[timing][ff]") {
    // A program draw, a fixed-function draw, SetVertexShaderConstant, the program again, fixed function again.
    const scene::Scene s = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/ff_mixed.json");
    // The writes the driver makes before each draw, as the scene machine gives them.
    scene::SceneMachine m(s, vs::Profile::d3d8());
    uint64_t app = 0, driver = 0, driver_batches = 0;
    for (size_t i = 0; i < s.commands.size(); ++i) {
        const scene::Command& c = s.commands[i];
        if (auto* cv = std::get_if<scene::CreateVertexShader>(&c.body)) m.create(c.pointer, *cv);
        else if (auto* sv = std::get_if<scene::SetVertexShader>(&c.body)) app += m.set_shader(c.pointer, *sv).size();
        else if (auto* k = std::get_if<scene::SetVertexShaderConstant>(&c.body)) app += m.set_constants(c.pointer, *k).size();
        else if (auto* ss = std::get_if<scene::SetStreamSource>(&c.body)) m.set_stream(c.pointer, *ss);
        else if (auto* si = std::get_if<scene::SetIndices>(&c.body)) m.set_indices(c.pointer, *si);
        else if (auto* rs = std::get_if<scene::SetRenderState>(&c.body)) m.set_render_state(c.pointer, *rs);
        else if (m.apply_ff_state(c.pointer, c.body)) {
        }
        else {
            const scene::DrawSetup d = std::holds_alternative<scene::DrawPrimitive>(c.body)
                                           ? m.draw(i, c.pointer, std::get<scene::DrawPrimitive>(c.body))
                                           : m.draw(i, c.pointer, std::get<scene::DrawIndexedPrimitive>(c.body));
            driver += d.constant_writes.size();
            driver_batches += !d.constant_writes.empty();
        }
    }
    CHECK(app == 7);               // c0..c5, then c5
    REQUIRE(driver_batches == 3);  // before the fixed-function draw, the program draw after it, fixed function again
    const Captured c = run(s);
    const auto& loader = c.result.stats["units"]["constant_loader"];
    CHECK(loader["counters"]["writes"]["value"].get<uint64_t>() == app + driver);
    CHECK(loader["counters"]["batches"]["value"].get<uint64_t>() == 2 + driver_batches);
    // The fixed-function constants overwrite what the first program draw reads: they wait for it.
    CHECK(loader["cycles"]["stalled"]["draw_in_flight"]["cycles"].get<uint64_t>() > 0);
    CHECK(c.result.ff_draws == 2);
    REQUIRE(c.result.ff_programs.size() == 1);
    check_equivalent(s, {"vertex_alu.engines=2", "constant_loader.queue=1"});
}

TEST_CASE("A scene command that fails in the timing model names its JSON pointer", "[timing]") {
    const std::string bad = R"({"op": "DrawPrimitive", "type": "pointlist", "start_vertex": 30, "primitive_count": 20},)";
    const scene::Scene s = point_scene(40, "vs.1.1\nmov oPos, v0\n", bad);
    REQUIRE_THROWS_WITH(run(s), Catch::Contains("/commands/4") && Catch::Contains("vertex"));
}

TEST_CASE("Random configurations neither deadlock nor change a vertex", "[timing]") {
    const uint64_t seed = test_seed("timing random configurations");
    std::mt19937_64 rng(seed);
    auto pick = [&rng](uint64_t lo, uint64_t hi) { return lo + rng() % (hi - lo + 1); };
    std::vector<scene::Scene> scenes = example_scenes();
    // The 10,000-vertex default scene (built in and as examples/scenes/default.json) is slow for
    // this many runs; the other examples are quick.
    scenes.erase(std::remove_if(scenes.begin(), scenes.end(),
                                [](const scene::Scene& s) {
                                    return s.name == "<default>" || s.name.find("default.json") != std::string::npos;
                                }),
                 scenes.end());
    REQUIRE(scenes.size() >= 4);
    for (int i = 0; i < 12; ++i) {
        const char* coissue[] = {"off", "pairs", "window"};
        const std::vector<std::string> sets = {
            fmt::format("vertex_alu.engines={}", pick(1, 4)),
            fmt::format("vertex_alu.contexts={}", pick(1, 6)),
            fmt::format("vertex_alu.vector_latency={}", pick(1, 8)),
            fmt::format("vertex_alu.scalar_latency={}", pick(1, 8)),
            fmt::format("vertex_alu.rcp_interval={}", pick(1, 4)),
            fmt::format("vertex_alu.coissue={}", coissue[pick(0, 2)]),
            fmt::format("vertex_alu.window={}", pick(2, 12)),
            fmt::format("vertex_alu.port_limit={}", pick(0, 1) ? "true" : "false"),
            fmt::format("post_transform_cache.entries={}", pick(0, 32)),
            fmt::format("post_transform_cache.batch_reset={}", pick(0, 1) ? pick(1, 60) : 0),
            fmt::format("vertex_fetch.input_buffers={}", pick(1, 8)),
            fmt::format("vertex_fetch.fetch_window={}", pick(1, 32)),
            fmt::format("vertex_fetch.queue={}", pick(1, 8)),
            fmt::format("vertex_fetch.elements_per_cycle={}", pick(1, 4)),
            fmt::format("vertex_fetch.cache_lines={}", pick(1, 64)),
            fmt::format("vertex_fetch.line_bytes={}", uint64_t(16) << pick(0, 3)),
            fmt::format("vertex_fetch.max_misses={}", pick(1, 16)),
            fmt::format("memory.latency={}", pick(0, 200)),
            fmt::format("memory.bytes_per_cycle={}", pick(1, 64)),
            fmt::format("index_fetch.indices_per_cycle={}", pick(1, 4)),
            fmt::format("index_fetch.draw_queue={}", pick(1, 4)),
            fmt::format("constant_loader.vectors_per_cycle={}", pick(1, 4)),
            fmt::format("constant_loader.queue={}", pick(1, 4)),
            fmt::format("output.buffers={}", pick(1, 8)),
            fmt::format("output.order_queue={}", pick(1, 128)),
            fmt::format("output.vertices_per_cycle={}", pick(1, 4)),
            fmt::format("front_end.command_cycles={}", pick(1, 20)),
            fmt::format("pipeline.quantum={}", pick(1, 5000)),
        };
        for (const auto& sc : scenes) check_equivalent(sc, sets);
    }
}

TEST_CASE("A channel is a FIFO with its capacity, latency and bandwidth, past its capacity too", "[timing]") {
    // Against a deque of (visible from, value): random pushes and pops over cycles (its ring
    // wraps around and grows), and bursts pushed without asking (as latency-0 counts are).
    std::mt19937_64 rng(test_seed("timing channel"));
    for (int round = 0; round < 40; ++round) {
        const uint32_t cap = 1 + uint32_t(rng() % 9), lat = uint32_t(rng() % 4), bw = 1 + uint32_t(rng() % 3);
        sc::Channel<std::string> ch("c", cap, lat, bw);
        sc::PushEnd<std::string>& out = ch;
        sc::PopEnd<std::string>& in = ch;
        std::deque<std::pair<sc::Cycle, std::string>> model;
        uint64_t pushed = 0;
        for (sc::Cycle now = 0; now < 300; ++now) {
            INFO("capacity " << cap << ", latency " << lat << ", bandwidth " << bw << ", cycle " << now);
            uint32_t pushes = 0, pops = 0;
            const bool burst = rng() % 50 == 0;
            for (int k = 0; k < 4; ++k) {
                if (rng() % 2) {
                    const bool can = model.size() < cap && pushes < bw;
                    REQUIRE(out.can_push(now) == can);
                    if (can || burst) {
                        const std::string v = std::to_string(pushed++) + std::string(rng() % 40, 'x');
                        out.push(v, now);
                        model.emplace_back(now + lat, v);
                        ++pushes;
                    }
                } else {
                    const bool can = !model.empty() && model.front().first <= now && pops < bw;
                    REQUIRE(in.can_pop(now) == can);
                    REQUIRE(in.next_pop(now) ==
                            (model.empty() ? sc::kNever : model.front().first > now ? model.front().first : now + 1));
                    if (can) {
                        REQUIRE(in.front() == model.front().second);
                        REQUIRE(in.pop(now) == model.front().second);
                        model.pop_front();
                        ++pops;
                    }
                }
                REQUIRE(ch.size() == model.size());
            }
        }
    }
}

TEST_CASE("A patch redrawn from its handle ignores the streams bound at the time", "[timing]") {
    scene::Scene s = scene::load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/patches/bezier.json");
    // Unbind stream 0 before the redraws: they read the handle's cached control points only.
    scene::Command unbind;
    unbind.body = scene::SetStreamSource{0, std::nullopt, 0};
    unbind.pointer = "/commands/unbind";
    size_t first_draw = 0;
    while (!std::holds_alternative<scene::DrawRectPatch>(s.commands[first_draw].body)) ++first_draw;
    s.commands.insert(s.commands.begin() + long(first_draw) + 1, unbind);
    check_equivalent(s, {});
    const Captured c = run(s);
    CHECK(c.result.count("tessellator/handle_hits") == 2);
}

TEST_CASE("Per-operation latencies: a longer rcp latency costs exactly its extra cycles on a dependent chain", "[timing]") {
    const scene::Scene s = point_scene(200, "vs.1.1\nrcp r0.x, v0.x\nmul oPos, v0, r0.x\n");
    const Captured short_rcp = run(s, with_fast_fetch({"vertex_alu.contexts=1", "vertex_alu.rcp_rsq_latency=3"}));
    const Captured long_rcp = run(s, with_fast_fetch({"vertex_alu.contexts=1", "vertex_alu.rcp_rsq_latency=8"}));
    const double d = cycles_per_vertex(long_rcp) - cycles_per_vertex(short_rcp);
    INFO("cycles per vertex: rcp latency 3 " << cycles_per_vertex(short_rcp) << ", 8 " << cycles_per_vertex(long_rcp));
    CHECK(d == Approx(5.0).margin(0.05));
    // dot products follow dot_latency, not vector_latency.
    const scene::Scene dp = point_scene(200, "vs.1.1\ndp4 r0.x, v0, c0\nmul oPos, v0, r0.x\n");
    const Captured dot3 = run(dp, with_fast_fetch({"vertex_alu.contexts=1", "vertex_alu.dot_latency=3"}));
    const Captured dot7 = run(dp, with_fast_fetch({"vertex_alu.contexts=1", "vertex_alu.dot_latency=7"}));
    CHECK(cycles_per_vertex(dot7) - cycles_per_vertex(dot3) == Approx(4.0).margin(0.05));
}

TEST_CASE("The timing model lists every unit's table, the post-transform cache with GeForce3 defaults among them", "[timing]") {
    const ParamSet p = vpsim::sc::default_params();
    CHECK(p.get_uint("post_transform_cache.entries") == 24);
    CHECK(p.get_uint("post_transform_cache.batch_reset") == 0);
    const std::string text = p.text();
    CHECK_THAT(text, Catch::Contains("post_transform_cache"));
    CHECK_THAT(text, Catch::Contains("GeForce3"));
    const auto j = p.tables_json();
    bool found = false;
    for (const auto& u : j)
        if (u["unit"] == "post_transform_cache") {
            found = true;
            CHECK(u["params"][0]["name"] == "entries");
            CHECK(u["params"][0]["unit"] == "entries");
            CHECK(u["params"][0]["source"].get<std::string>().find("GeForce3") != std::string::npos);
        }
    CHECK(found);
    ParamSet q = vpsim::sc::default_params();
    q.apply_set("post_transform_cache.entries=16");
    CHECK(pipe::PostTransformCacheParams::from(q).entries == 16);
}


namespace {

// Runs `s` on `topo` (null: the built-in one) with the parameters of the delay-stage topology
// (a superset), so one list of settings serves both.
Captured run_topology(const scene::Scene& s, const sc::Topology* topo, const std::vector<std::string>& sets,
                      const sc::UnitRegistry* registry = nullptr, std::map<std::string, std::string> variants = {}) {
    static const sc::Topology delayed = sc::load_topology_file(topology_path("delay_stage.json"));
    static const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_fetch.json"));
    std::vector<ParamTable> tables = sc::param_tables(delayed);
    for (const ParamTable& t : sc::param_tables(two))
        if (std::none_of(tables.begin(), tables.end(), [&](const ParamTable& x) { return x.unit == t.unit; }))
            tables.push_back(t);
    ParamSet p(tables);
    for (const auto& kv : sets) p.apply_set(kv);
    Captured c;
    sc::RunOptions opt;
    opt.topology = topo;
    opt.registry = registry;
    opt.variants = std::move(variants);
    opt.sink = test::capture_into(c);
    c.result = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
    return c;
}

void check_same_vertices(const Captured& a, const Captured& b) {
    REQUIRE(a.indices == b.indices);
    REQUIRE(a.vertices.size() == b.vertices.size());
    for (size_t d = 0; d < a.vertices.size(); ++d) {
        REQUIRE(a.vertices[d].size() == b.vertices[d].size());
        for (size_t k = 0; k < a.vertices[d].size(); ++k) {
            INFO("draw " << d << " reference " << k);
            REQUIRE(vs::same_bits(a.vertices[d][k], b.vertices[d][k]));
        }
    }
}

// The built-in topology's text with one replacement (which must apply).
std::string edited(const std::string& from, const std::string& to) {
    std::string t = sc::default_topology_text();
    const size_t at = t.find(from);
    REQUIRE(at != std::string::npos);
    return t.replace(at, from.size(), to);
}

}  // namespace

TEST_CASE("A pass-through stage inserted between the vertex fetch and the ALU keeps every vertex and adds its latency",
          "[timing][topology]") {
    // examples/topologies/delay_stage.json: the built-in topology with the stage's unit row, its
    // link to the ALU, and the fetch's link re-pointed to it; nothing else.
    const sc::Topology delayed = sc::load_topology_file(topology_path("delay_stage.json"));
    // One vertex: nothing overlaps, so the stage adds its latency plus the one extra channel hop
    // (delay_stage.in -> out -> vertex_alu.in: latency-1 channels on both sides).
    const scene::Scene one = point_scene(1, "vs.1.1\nm4x4 oPos, v0, c0\n");
    const Captured base1 = run_topology(one, nullptr, {});
    for (uint32_t latency : {0u, 1u, 5u, 40u}) {
        INFO("latency " << latency);
        const Captured d = run_topology(one, &delayed, {fmt::format("delay_stage.latency={}", latency)});
        REQUIRE(d.result.cycle_errors.empty());
        check_same_vertices(base1, d);
        CHECK(d.result.cycles == base1.result.cycles + latency + 1);
        CHECK(d.result.stats["units"]["delay_stage"]["counters"]["jobs"]["value"] == 1);
    }
    // A whole scene, ALU-bound, with input buffers and the stage deep enough to cover the longer
    // credit loop: throughput is unchanged, so only the pipeline's fill grows by latency + 1.
    const scene::Scene many = point_scene(500, "vs.1.1\nm4x4 oPos, v0, c0\n");
    const std::vector<std::string> deep = {"vertex_fetch.input_buffers=64", "delay_stage.depth=64"};
    const Captured base = run_topology(many, nullptr, deep);
    for (uint32_t latency : {3u, 20u}) {
        INFO("latency " << latency);
        std::vector<std::string> sets = deep;
        sets.push_back(fmt::format("delay_stage.latency={}", latency));
        const Captured d = run_topology(many, &delayed, sets);
        REQUIRE(d.result.cycle_errors.empty());
        check_same_vertices(base, d);
        CHECK(d.result.cycles == base.result.cycles + latency + 1);
    }
    // Every example scene stays bit-identical through the stage.
    for (const auto& s : example_scenes()) {
        INFO("scene " << s.name);
        check_same_vertices(run_topology(s, nullptr, {}), run_topology(s, &delayed, {"delay_stage.latency=7"}));
    }
}

TEST_CASE("A unit type's summary row is in the run's summary only when the topology has a unit of it",
          "[timing][summary]") {
    const sc::Topology delayed = sc::load_topology_file(topology_path("delay_stage.json"));
    const scene::Scene s = point_scene(50, "vs.1.1\nm4x4 oPos, v0, c0\n");
    auto row = [](const sc::RunResult& r) -> const sc::SummaryRow* {
        for (const sc::SummaryRow& x : r.rows)
            if (x.label == "delay stage") return &x;
        return nullptr;
    };
    const Captured with = run_topology(s, &delayed, {});
    REQUIRE(row(with.result));
    CHECK_THAT(row(with.result)->text, Catch::StartsWith("50 jobs passed through, holding jobs in "));
    CHECK_FALSE(row(run_topology(s, nullptr, {}).result));
}

TEST_CASE("A summary value two unit types declare is refused naming it", "[timing][summary]") {
    sc::UnitRegistry units = sc::builtin_units();
    sc::UnitType t;
    t.name = "second_output";
    t.what = "declares the output's value again";
    t.make = [](const sc::UnitContext&) -> std::unique_ptr<sc::TimedUnit> { return nullptr; };  // (no unit of it)
    t.summary.metrics = {{"shaded", 12, [](const sc::SummaryUnits&) { return nlohmann::ordered_json(0); }, {}}};
    units.add(std::move(t));
    CHECK_THROWS_WITH(run_topology(point_scene(1, "vs.1.1\nm4x4 oPos, v0, c0\n"), nullptr, {}, &units),
                      Catch::Contains("unit type second_output: summary value shaded is declared twice"));
}

TEST_CASE("The parameter couplings find their units by role: an N-way topology's warning reads its first ALU",
          "[timing][summary]") {
    // No unit is named vertex_alu here (vertex_alu_0, vertex_alu_1): the role finds the first.
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_alu.json"));
    ParamSet p = sc::default_params(two);
    p.apply_set("vertex_fetch.input_buffers=2");
    sc::RunOptions opt;
    opt.topology = &two;
    const scene::Scene s = point_scene(200, "vs.1.1\nm4x4 oPos, v0, c0\n");
    const sc::RunResult r = sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
    const uint64_t first = r.stats["units"]["vertex_alu_0"]["counters"]["max_in_flight"]["value"].get<uint64_t>();
    REQUIRE(first > 0);
    REQUIRE_FALSE(r.caps.empty());
    CHECK(r.caps[0].capping == "vertex_fetch.input_buffers");
    CHECK_THAT(r.caps[0].text, Catch::Contains(fmt::format("(at most {} in one engine in this run)", first)));
}

TEST_CASE("Two vertex fetch units, each with its own memory, share the jobs and keep every vertex",
          "[timing][topology]") {
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_fetch.json"));
    for (const auto& s : example_scenes()) {
        INFO("scene " << s.name);
        const Captured a = run_topology(s, nullptr, {});
        const Captured b = run_topology(s, &two, {});
        REQUIRE(b.result.cycle_errors.empty());
        check_same_vertices(a, b);
        // Each instance has its own statistics; the jobs alternate between the two.
        const auto& u = b.result.stats["units"];
        const uint64_t v0 = u["vertex_fetch_0"]["counters"]["vertices"]["value"].get<uint64_t>();
        const uint64_t v1 = u["vertex_fetch_1"]["counters"]["vertices"]["value"].get<uint64_t>();
        CHECK(v0 + v1 == a.result.stats["units"]["vertex_fetch"]["counters"]["vertices"]["value"].get<uint64_t>());
        CHECK(v0 - v1 <= 1);  // v0 takes the first job of each pair
        CHECK(u.contains("memory_0"));
        CHECK(u.contains("memory_1"));
        CHECK_FALSE(u.contains("vertex_fetch"));
    }
    // A fetch-bound scene (one line per vertex, a slow memory): two fetch units with a memory
    // each take fewer cycles.
    const scene::Scene fetch_bound = point_scene(400, "vs.1.1\nmov oPos, v0\n");
    const std::vector<std::string> slow = {"memory.latency=200", "vertex_fetch.fetch_window=2",
                                           "vertex_fetch.prefetch_lines=0", "vertex_fetch.line_bytes=16"};
    const Captured one_unit = run_topology(fetch_bound, nullptr, slow);
    const Captured two_units = run_topology(fetch_bound, &two, slow);
    check_same_vertices(one_unit, two_units);
    INFO("one fetch unit: " << one_unit.result.cycles << " cycles, two: " << two_units.result.cycles);
    CHECK(two_units.result.cycles * 10 < one_unit.result.cycles * 6);
}

TEST_CASE("A unit type's variant (another implementation of it) is built when a run asks for it", "[timing][topology]") {
    sc::UnitRegistry r = sc::builtin_units();
    int built = 0;
    const sc::UnitFactory model = r.find("vertex_fetch")->make;
    r.add_variant("vertex_fetch", "counted", [&built, model](const sc::UnitContext& c) {
        ++built;
        return model(c);
    });
    const scene::Scene one = point_scene(3, "vs.1.1\nmov oPos, v0\n");
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_fetch.json"));
    const Captured base = run_topology(one, &two, {}, &r);
    CHECK(built == 0);
    const Captured v = run_topology(one, &two, {}, &r, {{"vertex_fetch", "counted"}});
    CHECK(built == 2);  // both instances
    check_same_vertices(base, v);
    CHECK_THROWS_WITH(run_topology(one, &two, {}, &r, {{"vertex_fetch", "rtl"}}),
                      Catch::Contains("unit type vertex_fetch has no variant rtl"));
}

TEST_CASE("The topology file is refused before the run, each error located in the file", "[timing][topology]") {
    // The built-in topology builds.
    CHECK(topology_error(sc::default_topology_text()).empty());
    {  // Not JSON.
        const std::string t = edited("\"units\": [", "\"units\": [,");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "[,", 1)) && Catch::Contains("not valid JSON"));
    }
    {  // An unknown member.
        const std::string t = edited("{\"name\": \"output\", \"type\": \"output\"}",
                                     "{\"name\": \"output\", \"type\": \"output\", \"colour\": 1}");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "1}")) && Catch::Contains("unknown member \"colour\""));
    }
    {  // An unknown unit type.
        const std::string t = edited("\"type\": \"tessellator\"", "\"type\": \"tesselator\"");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"tesselator\"")) &&
                                          Catch::Contains("unknown unit type tesselator; valid: front_end"));
    }
    {  // A unit named twice.
        const std::string t = edited("{\"name\": \"output\", \"type\": \"output\"}",
                                     "{\"name\": \"output\", \"type\": \"output\"}, {\"name\": \"output\", \"type\": \"output\"}");
        CHECK_THAT(topology_error(t), Catch::Contains("unit output is named twice"));
    }
    {  // A link naming a port that does not exist.
        const std::string t = edited("\"to\": \"constant_loader.in\"", "\"to\": \"constant_loader.nope\"");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"constant_loader.nope\"")) &&
                                          Catch::Contains("names no port constant_loader.nope; the ports of "
                                                          "constant_loader: in (in), draws_done (in), written (out)"));
    }
    {  // A link naming a unit that does not exist.
        const std::string t = edited("\"to\": \"constant_loader.in\"", "\"to\": \"loader.in\"");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"loader.in\"")) && Catch::Contains("names no unit"));
    }
    {  // An input where an output belongs (and the other way round).
        const std::string t = edited("\"from\": \"front_end.constants\"", "\"from\": \"constant_loader.in\"");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"constant_loader.in\"")) &&
                                          Catch::Contains("constant_loader.in is an input port; \"from\" needs an output port"));
        const std::string u = edited("\"to\": \"constant_loader.in\"", "\"to\": \"front_end.draws\"");
        CHECK_THAT(topology_error(u), Catch::Contains("front_end.draws is an output port; \"to\" needs an input port"));
    }
    {  // Two ports that carry different things: a credit into a job port, draws done into
       // constants written (both counts once were uint64_t), a job into a draw port.
        const std::string t = edited("\"to\": \"vertex_fetch.credits\"", "\"to\": \"vertex_fetch.in\"");
        CHECK_THAT(topology_error(t), Catch::Contains("vertex_alu.credits and vertex_fetch.in carry different things"));
        const std::string u = edited("\"to\": \"constant_loader.draws_done\"", "\"to\": \"vertex_alu.constants_written\"");
        CHECK_THAT(topology_error(u), Catch::StartsWith(where(u, "\"vertex_alu.constants_written\"")) &&
                                          Catch::Contains("carry different things"));
        const std::string v = edited("\"to\": \"vertex_fetch.in\"", "\"to\": \"tessellator.in\"");
        CHECK_THAT(topology_error(v), Catch::Contains("index_fetch.jobs and tessellator.in carry different things"));
    }
    {  // A port left unconnected (the link removed): located at its unit.
        const std::string t = edited(R"(,
    {"name": "constants_written", "from": "constant_loader.written", "to": "vertex_alu.constants_written",
     "capacity": 4, "latency": 1, "bandwidth": 4, "carries": "count of constant vectors written"})", "");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"constant_loader\", \"type\"")) &&
                                          Catch::Contains("port constant_loader.written (out) is not connected"));
    }
    {  // A port connected twice.
        const std::string t = edited("\"to\": \"output.shaded\"", "\"to\": \"vertex_alu.in\"");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"vertex_alu.in\",\n     \"capacity\": \"output")) &&
                                          Catch::Contains("port vertex_alu.in is connected twice"));
    }
    {  // Latency-0 links the dispatcher cannot order: the loader would have to be stepped both
       // before and after the ALU in the same cycle.
        const std::string t = edited("\"capacity\": 4, \"latency\": 1, \"bandwidth\": 4, \"carries\": \"count of constant",
                                     "\"capacity\": 4, \"latency\": 0, \"bandwidth\": 4, \"carries\": \"count of constant");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "0, \"bandwidth\": 4, \"carries\": \"count of constant")) &&
                                          Catch::Contains("latency-0 links form a cycle the dispatcher cannot order "
                                                          "(constants_written, alu_draws_done)"));
    }
    {  // A parameter key that does not exist in an amount.
        const std::string t = edited("\"capacity\": \"output.buffers\"", "\"capacity\": \"output.bufers\"");
        CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"output.bufers\"")) && Catch::Contains("output.bufers"));
    }
    {  // A memory port left unconnected, or naming a unit that is not a memory.
        const std::string t = edited(", \"memory\": \"memory\"}", "}");
        CHECK_THAT(topology_error(t), Catch::Contains("unit vertex_fetch: its memory port is not connected"));
        const std::string u = edited(", \"memory\": \"memory\"}", ", \"memory\": \"output\"}");
        CHECK_THAT(topology_error(u), Catch::StartsWith(where(u, "\"output\"}")) &&
                                          Catch::Contains("\"memory\" names no memory unit (output)"));
        const std::string v = edited("{\"name\": \"output\", \"type\": \"output\"}",
                                     "{\"name\": \"output\", \"type\": \"output\", \"memory\": \"memory\"}");
        CHECK_THAT(topology_error(v), Catch::Contains("unit output (type output) has no memory port"));
    }
}

namespace {

// The builtin unit types, with `edit` applied to type `name` (its needs, its factory).
sc::UnitRegistry edited_units(const std::string& name, const std::function<void(sc::UnitType&)>& edit) {
    sc::UnitRegistry r;
    for (sc::UnitType t : sc::builtin_units().types()) {
        if (t.name == name) edit(t);
        r.add(std::move(t));
    }
    return r;
}

// topology_error with unit types of one's own.
std::string topology_error_with(const std::string& text, const sc::UnitRegistry& units) {
    try {
        const sc::Topology t = sc::parse_topology(text, "T.json");
        sc::RunOptions opt;
        opt.topology = &t;
        opt.registry = &units;
        sc::check_topology(sc::default_params(t, units), opt);
    } catch (const sc::TopologyError& e) {
        return e.what();
    }
    return "";
}

// The output's factory, also recording the post-transform cache entries it was given (OutputNeeds).
sc::UnitRegistry output_recording(uint32_t& entries) {
    return edited_units("output", [&entries](sc::UnitType& t) {
        t.make = [&entries, make = t.make](const sc::UnitContext& c) {
            entries = c.params.needs<sc::OutputNeeds>().ptc_entries;
            return make(c);
        };
    });
}

}  // namespace

TEST_CASE("A unit cannot read another unit's parameter table: the lookup fails naming the unit and the table",
          "[timing][params]") {
    // An output that reads the index fetch's post-transform cache table itself, not through its
    // declared dependency.
    const sc::UnitRegistry units = edited_units("output", [](sc::UnitType& t) {
        t.make = [make = t.make](const sc::UnitContext& c) {
            (void)c.params.of<pipe::PostTransformCacheParams>();
            return make(c);
        };
    });
    CHECK_THROWS_WITH(run_topology(point_scene(1, "vs.1.1\nm4x4 oPos, v0, c0\n"), nullptr, {}, &units),
                      Catch::Contains("unit output reads parameter table post_transform_cache, which is not its own "
                                      "(its tables: output)"));
}

TEST_CASE("A unit's declared dependency is bound by its role: the output gets the index fetch's cache entries",
          "[timing][params]") {
    uint32_t entries = 0;
    const sc::UnitRegistry units = output_recording(entries);
    run_topology(point_scene(1, "vs.1.1\nm4x4 oPos, v0, c0\n"), nullptr, {"post_transform_cache.entries=7"}, &units);
    CHECK(entries == 7);
}

TEST_CASE("A dependency on the memory port is bound to the memory the port names: each fetch's words quote its own",
          "[timing][params]") {
    const sc::Topology two = sc::load_topology_file(topology_path("two_vertex_fetch.json"));
    const Captured c = run_topology(point_scene(400, "vs.1.1\nmov oPos, v0\n"), &two,
                                    {"memory_0.latency=20", "memory_1.latency=300", "vertex_fetch_1.max_misses=1"});
    CHECK_THAT(c.result.bottleneck, Catch::StartsWith("the vertex fetch vertex_fetch_1: waiting on memory with all 1 "
                                                      "miss registers busy (300-cycle latency"));
}

TEST_CASE("A topology row binds a declared dependency to the parameter it names", "[timing][params]") {
    uint32_t entries = 0;
    const sc::UnitRegistry units = output_recording(entries);
    const sc::Topology t = sc::parse_topology(edited("{\"name\": \"output\", \"type\": \"output\"}",
                                                     "{\"name\": \"output\", \"type\": \"output\", \"bind\": "
                                                     "{\"ptc_entries\": \"index_fetch.draw_queue\"}}"),
                                              "T.json");
    run_topology(point_scene(1, "vs.1.1\nm4x4 oPos, v0, c0\n"), &t,
                 {"post_transform_cache.entries=7", "index_fetch.draw_queue=5"}, &units);
    CHECK(entries == 5);
}

TEST_CASE("A bad binding row is refused, located: not a key, an undeclared need, no such parameter, another type",
          "[timing][params]") {
    auto bound = [](const std::string& bind) {
        return edited("{\"name\": \"output\", \"type\": \"output\"}",
                      "{\"name\": \"output\", \"type\": \"output\", \"bind\": " + bind + "}");
    };
    const std::string not_key = bound("{\"ptc_entries\": 24}");
    CHECK_THAT(topology_error(not_key), Catch::StartsWith(where(not_key, "24}")) &&
                                            Catch::Contains("binding \"ptc_entries\": a binding is a parameter key"));
    const std::string undeclared = bound("{\"entries\": \"post_transform_cache.entries\"}");
    CHECK_THAT(topology_error(undeclared),
               Catch::StartsWith(where(undeclared, "\"post_transform_cache.entries\"}")) &&
                   Catch::Contains("unit output: binds entries, which its type output does not need (its needs: "
                                   "ptc_entries)"));
    const std::string missing = bound("{\"ptc_entries\": \"post_transform_cache.entry\"}");
    CHECK_THAT(topology_error(missing), Catch::StartsWith(where(missing, "\"post_transform_cache.entry\"}")) &&
                                            Catch::Contains("ptc_entries is bound to post_transform_cache.entry, which "
                                                            "is not a parameter of this run"));
    const std::string typed = bound("{\"ptc_entries\": \"pipeline.clock_mhz\"}");
    CHECK_THAT(topology_error(typed), Catch::StartsWith(where(typed, "\"pipeline.clock_mhz\"}")) &&
                                          Catch::Contains("ptc_entries is a uint") &&
                                          Catch::Contains("pipeline.clock_mhz is a double parameter"));
}

TEST_CASE("A dependency whose role no unit plays, or several units play, is refused at the reader's row",
          "[timing][params]") {
    auto needing = [](const std::string& role) {
        return edited_units("output", [role](sc::UnitType& t) {
            t.needs.push_back({"alu_contexts", ParamType::Uint, "an ALU's contexts", role, "vertex_alu.contexts"});
        });
    };
    const std::string text = sc::default_topology_text();
    CHECK_THAT(topology_error_with(text, needing("nobody")),
               Catch::StartsWith(where(text, "{\"name\": \"output\"")) &&
                   Catch::Contains("unit output: needs alu_contexts (uint: an ALU's contexts) from the unit playing role "
                                   "nobody, and no unit of the topology plays it"));
    const std::string two = sc::load_topology_file(topology_path("two_vertex_alu.json")).text;
    CHECK_THAT(topology_error_with(two, needing("vertex_alu")),
               Catch::StartsWith(where(two, "{\"name\": \"output\"")) &&
                   Catch::Contains("several do (vertex_alu_0, vertex_alu_1); bind it (\"bind\": {\"alu_contexts\": "
                                   "\"vertex_alu_0.contexts\"})"));
    // Bound by a row, it builds.
    std::string rowed = two;
    const std::string row = "{\"name\": \"output\", \"type\": \"output\"}";
    REQUIRE(rowed.find(row) != std::string::npos);
    rowed.replace(rowed.find(row), row.size(),
                  "{\"name\": \"output\", \"type\": \"output\", \"bind\": {\"alu_contexts\": \"vertex_alu_1.contexts\"}}");
    CHECK(topology_error_with(rowed, needing("vertex_alu")).empty());
}

TEST_CASE("A topology file nested 50,000 deep is refused at its first level, located, without recursion",
          "[timing][topology]") {
    // Deeper than a native stack holds one frame per level; refused like a scene or config file
    // of the same depth (the value is checked from the top), and the position found in one pass.
    const std::string deep(50000, '[');
    const std::string t = "{\"schema\": \"vpsim-topology-1\", \"units\": " + deep + std::string(50000, ']') + ", \"links\": []}";
    CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "[[", 1)) && Catch::Contains("expected an object, got array"));
    const std::string u = "{\"schema\": " + deep + std::string(50000, ']') + "}";
    CHECK_THAT(topology_error(u), Catch::StartsWith(where(u, "[[")) && Catch::Contains("\"schema\" must be a non-empty string"));
    const std::string v = "{\"schema\": \"vpsim-topology-1\", \"units\": [{\"name\": \"a\", \"type\": \"output\"}], "
                          "\"links\": [{\"name\": \"l\", \"from\": \"a.x\", \"to\": \"a.y\", \"capacity\": " + deep +
                          std::string(50000, ']') + "}]}";
    CHECK_THAT(topology_error(v), Catch::StartsWith(where(v, "[[")) &&
                                      Catch::Contains("\"capacity\" must be a number >= 1 or a parameter key \"unit.param\", "
                                                      "got an array"));
}

namespace {

// The built-in topology with n delay stages between the vertex fetch and the ALU.
std::string chain_topology(size_t n) {
    std::string units, links;
    std::string prev = "vertex_fetch.out";
    for (size_t i = 0; i < n; ++i) {
        units += fmt::format("    {{\"name\": \"delay_{}\", \"type\": \"delay_stage\"}},\n", i);
        links += fmt::format("    {{\"name\": \"link_{}\", \"from\": \"{}\", \"to\": \"delay_{}.in\", \"capacity\": 4, "
                             "\"latency\": 1, \"bandwidth\": 1}},\n", i, prev, i);
        prev = fmt::format("delay_{}.out", i);
    }
    std::string t = edited("\"from\": \"vertex_fetch.out\", \"to\": \"vertex_alu.in\"",
                           "\"from\": \"" + prev + "\", \"to\": \"vertex_alu.in\"");
    t.insert(t.find("    {\"name\": \"vertex_alu\""), units);
    t.insert(t.find("\"links\": [\n") + 11, links);
    return t;
}

// This thread's CPU seconds (not the wall clock: other processes on the machine do not count).
double thread_cpu_seconds() {
    timespec ts{};
    ::clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

}  // namespace

TEST_CASE("A topology file of a 5,000-unit chain is read and ordered in linear time", "[timing][topology]") {
    // Reading a topology once walked the text from its start for every position (a 4,000-unit chain:
    // 18.6 s for `vpsim run --topology`, 2,000: 5.7 s) and ordering it searched the units for every
    // link; both are linear now (a 20,000-unit file, docs/timing-model.md). Linear is judged by the
    // CPU time of a 5,000-unit chain against a 625-unit one (the least of three tries each), not by
    // seconds, so that neither the machine's speed nor its load decides: 8 times the units take 11.0 to
    // 12.3 times the CPU time now (5 runs here: the indexed sets' log n and the caches), and took 36
    // times or more with the quadratic reading (2,000 units 5.7 s, 4,000: 18.6 s, 3.3 times per
    // doubling); the test fails at 20 times, between the two.
    const auto read_and_order = [](const std::string& t, std::vector<std::string>& order, sc::Topology& topo) {
        const double t0 = thread_cpu_seconds();
        topo = sc::parse_topology(t, "T.json");
        order = sc::step_order(topo, sc::builtin_units(), sc::default_params(topo));
        return thread_cpu_seconds() - t0;
    };
    const size_t n = 5000;
    const std::string t = chain_topology(n), small_t = chain_topology(n / 8);
    std::vector<std::string> order, small_order;
    sc::Topology topo, small_topo;
    double small = 1e9, large = 1e9;
    for (int i = 0; i < 3; ++i) {
        small = std::min(small, read_and_order(small_t, small_order, small_topo));
        large = std::min(large, read_and_order(t, order, topo));
    }
    REQUIRE(small_order.size() == n / 8 + 8);
    REQUIRE(order.size() == n + 8);
    CHECK(order[2] == "delay_4999");
    CHECK(order[n + 1] == "delay_0");
    CHECK(topo.links.front().at.at("to") == where(t, "\"delay_0.in\"").substr(0, where(t, "\"delay_0.in\"").size() - 2));
    INFO(n / 8 << " units: " << small << " s of CPU, " << n << " units: " << large << " s (" << large / small << " times)");
    CHECK(large < 20 * small);
}

TEST_CASE("A unit or link name other than letters, digits and '_' is refused, located, and echoed escaped",
          "[timing][topology]") {
    // " " and "\u0000" once reached SystemC (exit 3, no position); U+202E was printed raw.
    for (const std::string& name : {std::string("\" \""), std::string("\"\\u0000\""), std::string("\"a\\u202eb\"")}) {
        const std::string t = edited("{\"name\": \"output\", \"type\": \"output\"}", "{\"name\": " + name + ", \"type\": \"output\"}");
        const std::string e = topology_error(t);
        CHECK_THAT(e, Catch::StartsWith(where(t, name + ", \"type\": \"output\"")) &&
                          Catch::Contains("unit name \"") && Catch::Contains("a name is letters, digits and '_'"));
        for (unsigned char c : e) CHECK((c >= 0x20 && c < 0x7f));
    }
    CHECK_THAT(topology_error(edited("{\"name\": \"output\", \"type\": \"output\"}",
                                     "{\"name\": \"a\\u202eb\", \"type\": \"output\"}")),
               Catch::Contains("unit name \"a\\xe2\\x80\\xaeb\""));
    const std::string t = edited("\"name\": \"vertex_fetch_to_alu\"", "\"name\": \"to alu\"");
    CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "\"to alu\"")) && Catch::Contains("link name \"to alu\""));
    // A member's key with escapes is located at the member, and echoed escaped.
    const std::string u = edited("{\"name\": \"output\", \"type\": \"output\"}",
                                 "{\"name\": \"output\", \"type\": \"output\", \"\\u202e\": 1}");
    CHECK_THAT(topology_error(u), Catch::StartsWith(where(u, "1}")) && Catch::Contains("unknown member \"\\xe2\\x80\\xae\""));
}

TEST_CASE("A capacity or bandwidth of 0 is refused, located, not taken as 1", "[timing][topology]") {
    const std::string t = edited("\"capacity\": 4, \"latency\": 1, \"bandwidth\": 4, \"carries\": \"count of constant",
                                 "\"capacity\": 0, \"latency\": 1, \"bandwidth\": 4, \"carries\": \"count of constant");
    CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "0, \"latency\": 1, \"bandwidth\": 4, \"carries\": \"count of constant")) &&
                                      Catch::Contains("\"capacity\" must be at least 1, got 0"));
    const std::string u = edited("\"capacity\": 4, \"latency\": 1, \"bandwidth\": 4, \"carries\": \"count of constant",
                                 "\"capacity\": 4, \"latency\": 1, \"bandwidth\": 0, \"carries\": \"count of constant");
    CHECK_THAT(topology_error(u), Catch::StartsWith(where(u, "0, \"carries\": \"count of constant")) &&
                                      Catch::Contains("\"bandwidth\" must be at least 1, got 0"));
}

TEST_CASE("A latency-0 link from a unit to itself is refused as a cycle, located", "[timing][topology]") {
    // A delay stage feeding itself through a latency-0 channel would have to be stepped before
    // and after itself in the same cycle (the other latency-0 cycles are refused the same way).
    std::string t = edited("    {\"name\": \"vertex_alu\"", "    {\"name\": \"loop\", \"type\": \"delay_stage\"},\n    {\"name\": \"vertex_alu\"");
    t.insert(t.find("\"links\": [\n") + 11, "    {\"name\": \"self\", \"from\": \"loop.out\", \"to\": \"loop.in\", "
                                             "\"capacity\": 1, \"latency\": 0, \"bandwidth\": 1},\n");
    CHECK_THAT(topology_error(t), Catch::StartsWith(where(t, "0, \"bandwidth\": 1},\n")) &&
                                      Catch::Contains("latency-0 links form a cycle the dispatcher cannot order (self: from "
                                                      "unit loop to itself)"));
    // Through a latency of 1 the same loop is ordered (the unit is stepped once a cycle).
    std::string u = t;
    u.replace(u.find("\"latency\": 0, \"bandwidth\": 1},\n"), 12, "\"latency\": 1");
    CHECK(topology_error(u) == "");
}

TEST_CASE("The topology prints every channel and its DOT graph has an edge per link", "[timing][topology]") {
    const ParamSet p = sc::default_params();
    const sc::Topology& t = sc::default_topology();
    const std::string text = sc::topology_text(t, p);
    const std::string dot = sc::topology_dot(t, p);
    for (const sc::LinkSpec& l : t.links) {
        CHECK_THAT(text, Catch::Contains(l.name));
        CHECK_THAT(dot, Catch::Contains("label=\"" + l.name));
    }
    // The step order comes from the links: downstream first, the decoder after the front end
    // that sends it declarations in the same cycle.
    CHECK_THAT(text, Catch::Contains("step order (downstream first): output, vertex_alu, vertex_fetch, index_fetch, "
                                     "tessellator, constant_loader, front_end, decl_decoder\n"));
    ParamSet q = p;
    q.apply_set("vertex_fetch.input_buffers=13");
    CHECK_THAT(sc::topology_text(t, q), Catch::Contains(" 13 "));
}

// ---- The bottleneck traced to its cause (model/sc/bottleneck.h): configurations whose cause is
// known by construction.

bool chain_has(const sc::RunResult& r, const std::string& unit, const std::string& cls, const std::string& by) {
    for (const auto& c : r.bottleneck_chain)
        if (c.unit == unit && c.cls == cls && c.by == by) return true;
    return false;
}

TEST_CASE("Bottleneck: a huge memory latency is named at the vertex fetch, with the ALU starved by it", "[timing][bottleneck]") {
    const Captured c = run(scene::default_scene(), {"memory.latency=5000"});
    INFO(c.result.bottleneck);
    CHECK(c.result.bottleneck_unit == "vertex_fetch");
    CHECK((c.result.bottleneck_reason == "miss_limit" || c.result.bottleneck_reason == "memory_latency"));
    CHECK(chain_has(c.result, "vertex_alu", "starvation", "vertex_fetch"));
    // The same scene with the default latency is not memory-bound: the test can tell.
    const Captured d = run(scene::default_scene());
    INFO(d.result.bottleneck);
    CHECK(d.result.bottleneck_unit == "vertex_alu");
}

TEST_CASE("Bottleneck: a huge ALU latency is named at the ALU as a local dependency", "[timing][bottleneck]") {
    const Captured c = run(scene::default_scene(),
                           with_fast_fetch({"vertex_alu.vector_latency=64", "vertex_alu.scalar_latency=64",
                                            "vertex_alu.dot_latency=64", "vertex_alu.rcp_rsq_latency=64"}));
    INFO(c.result.bottleneck);
    CHECK(c.result.bottleneck_unit == "vertex_alu");
    CHECK((c.result.bottleneck_reason == "dependency" || c.result.bottleneck_reason == "result_latency"));
    REQUIRE(!c.result.bottleneck_chain.empty());
    CHECK(c.result.bottleneck_chain.back().cls == "local");
}

TEST_CASE("Bottleneck: a narrow memory bus is named as the memory bus, saturated", "[timing][bottleneck]") {
    const Captured c = run(scene::default_scene(), {"memory.bytes_per_cycle=1"});
    INFO(c.result.bottleneck);
    CHECK(c.result.bottleneck_unit == "memory");
    CHECK(c.result.bottleneck_reason == "busy");
    CHECK(c.result.bottleneck_busy > 0.95);
}

TEST_CASE("Bottleneck: a one-reference order queue is named as the capacity that caps the work in flight",
          "[timing][bottleneck]") {
    const Captured c = run(scene::default_scene(), {"output.order_queue=1"});
    INFO(c.result.bottleneck);
    CHECK(c.result.bottleneck_reason == "capacity");
    CHECK(c.result.bottleneck_unit == "output");
    CHECK(chain_has(c.result, "index_fetch", "back_pressure", "output"));
}

TEST_CASE("Bottleneck: input buffers fewer than the contexts are named as the cap", "[timing][bottleneck]") {
    // 4 engines x 3 contexts = 12 vertices could be in flight; 6 input buffers hold 6.
    const Captured c = run(scene::default_scene(), {"vertex_alu.engines=4"});
    INFO(c.result.bottleneck);
    CHECK(c.result.bottleneck_reason == "capacity");
    CHECK(chain_has(c.result, "vertex_fetch", "back_pressure", "vertex_alu"));
    CHECK(c.result.bottleneck_unit == "vertex_alu");
}

TEST_CASE("Bottleneck: one output buffer behind an ALU that outpaces the output names the output, saturated",
          "[timing][bottleneck]") {
    // The default scene is indexed: about 4.8 references per shaded vertex, each a cycle of the
    // output's; 8 engines with a fast fetch shade a vertex in fewer cycles than that.
    const Captured c = run(scene::default_scene(),
                           with_fast_fetch({"output.buffers=1", "vertex_alu.engines=8", "vertex_fetch.input_buffers=64",
                                            "output.order_queue=1024", "vertex_fetch.prefetch_lines=0",
                                            "index_fetch.indices_per_cycle=4"}));
    INFO(c.result.bottleneck);
    CHECK(c.result.bottleneck_unit == "output");
    CHECK(c.result.bottleneck_reason == "busy");
    // Two references a cycle out of the output: it is no longer the cause.
    const Captured d = run(scene::default_scene(),
                           with_fast_fetch({"output.buffers=1", "vertex_alu.engines=8", "vertex_fetch.input_buffers=64",
                                            "output.order_queue=1024", "vertex_fetch.prefetch_lines=0",
                                            "index_fetch.indices_per_cycle=4", "output.vertices_per_cycle=2"}));
    INFO(d.result.bottleneck);
    CHECK(d.result.bottleneck_unit != "output");
    CHECK(d.result.cycles < c.result.cycles);
}

TEST_CASE("Caps: fewer input buffers than engines x contexts warn, with the in-flight statistics showing the cap",
          "[timing][caps]") {
    auto has = [](const sc::RunResult& r, const std::string& capping) {
        for (const auto& c : r.caps)
            if (c.capping == capping) return true;
        return false;
    };
    // 2 x 4 = 8 contexts, 6 input buffers: at most 6 vertices are in the ALU.
    const Captured capped = run(scene::default_scene(), {"vertex_alu.engines=2", "vertex_alu.contexts=4"});
    CHECK(has(capped.result, "vertex_fetch.input_buffers"));
    CHECK(capped.result.count("max_in_flight_per_engine") <= 4);  // 6 buffers over 2 engines, round robin: never all 4 of each
    // Contexts 6: the same cycles (the cap), and still warned.
    const Captured more = run(scene::default_scene(), {"vertex_alu.engines=2", "vertex_alu.contexts=6"});
    CHECK(more.result.cycles == capped.result.cycles);
    CHECK(has(more.result, "vertex_fetch.input_buffers"));
    // 12 input buffers lift it: no warning, and more vertices in flight.
    const Captured lifted = run(scene::default_scene(), {"vertex_alu.engines=2", "vertex_alu.contexts=4",
                                                         "vertex_fetch.input_buffers=12", "output.buffers=12"});
    CHECK(!has(lifted.result, "vertex_fetch.input_buffers"));
    CHECK(lifted.result.real("in_flight_per_engine") > capped.result.real("in_flight_per_engine"));
    // The defaults (1 engine x 3 contexts, 6 buffers) are not capped.
    CHECK(!has(run(scene::default_scene()).result, "vertex_fetch.input_buffers"));
}

// Issue 33: each engine's cycles (vertex_alu counters e<N>_*_cycles).
namespace {
uint64_t alu_counter(const Captured& c, const std::string& name) {
    return c.result.stats["units"]["vertex_alu"]["counters"][name]["value"].get<uint64_t>();
}
}  // namespace

TEST_CASE("Each vertex engine's cycles add up to the run's, and their issue cycles to the ALU's", "[timing]") {
    for (unsigned engines : {1u, 2u, 3u}) {
        INFO(engines << " engines");
        const Captured c = run(scene::default_scene(), {fmt::format("vertex_alu.engines={}", engines)});
        uint64_t issue = 0;
        for (unsigned e = 0; e < engines; ++e) {
            const auto k = [&](const char* what) { return alu_counter(c, fmt::format("e{}_{}_cycles", e, what)); };
            CHECK(k("issue") + k("dependency") + k("latency") + k("empty") == c.result.cycles);
            issue += k("issue");
        }
        CHECK(issue == alu_counter(c, "issue_cycles"));
    }
}

// Issue 33: the same engine cycles by context class (k<N>_*_cycles, N contexts holding a vertex).
TEST_CASE("The engine cycles by context class add up to the engines' issue, dependency and latency cycles",
          "[timing]") {
    for (unsigned engines : {1u, 2u}) {
        INFO(engines << " engines");
        const Captured c = run(scene::default_scene(), {fmt::format("vertex_alu.engines={}", engines)});
        for (const char* what : {"issue", "dependency", "latency"}) {
            INFO(what);
            uint64_t by_engine = 0, by_class = 0;
            for (unsigned e = 0; e < engines; ++e) by_engine += alu_counter(c, fmt::format("e{}_{}_cycles", e, what));
            for (unsigned k = 1; k <= 3; ++k) by_class += alu_counter(c, fmt::format("k{}_{}_cycles", k, what));
            CHECK(by_class == by_engine);
        }
    }
}

TEST_CASE("A vertex alone on an engine is counted in the one-context class", "[timing]") {
    // One point: its engine holds one vertex at a time, so no cycle is in a class above 1.
    const Captured c = run(point_scene(1, "vs.1.1\nmov oPos, v0\n"));
    CHECK(alu_counter(c, "k1_issue_cycles") == alu_counter(c, "e0_issue_cycles"));
    CHECK(alu_counter(c, "k2_issue_cycles") + alu_counter(c, "k2_dependency_cycles") +
              alu_counter(c, "k2_latency_cycles") + alu_counter(c, "k3_issue_cycles") +
              alu_counter(c, "k3_dependency_cycles") + alu_counter(c, "k3_latency_cycles") ==
          0);
}

TEST_CASE("An engine that is given no vertex is empty for the whole run while the other works", "[timing]") {
    const Captured c = run(point_scene(1, "vs.1.1\nmov oPos, v0\n"), {"vertex_alu.engines=2"});
    CHECK(alu_counter(c, "e1_empty_cycles") == c.result.cycles);
    CHECK(alu_counter(c, "e0_issue_cycles") == 1);
    CHECK(alu_counter(c, "e0_empty_cycles") < c.result.cycles);
}

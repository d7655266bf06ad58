// Sampled simulation (model/study/sampling.h, docs/sampling.md): the stratified estimate's
// formula, how a scene is cut into units and sub-scenes, and that the units' marginal cycles sum
// to the full run's when each is warmed with its whole history.
#include "model/pipe/post_transform_cache.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"
#include "model/scene/functional.h"
#include "model/scene/program_cache.h"
#include "model/scene/scene_window.h"
#include "model/study/sample_stats.h"
#include "model/study/sampling.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <variant>

using namespace vpsim;
using namespace vpsim::study;

namespace {
Stratum stratum(std::vector<double> values, uint64_t units) {  // without an auxiliary: the mean
    Stratum h;
    h.values = std::move(values);
    h.units = units;
    return h;
}
// The default scene's draw in 5 units, each measured with the whole history before it as warm-up.
SamplePlan whole_history_plan(const scene::Scene& s) {
    SampleOptions o;
    o.unit_refs = 12000;
    o.period = 1;
    o.warmup = 1u << 30;
    o.min_samples = 1;
    o.min_phase_samples = 1;
    SamplePlan p = plan_sampling(s, o);
    REQUIRE(p.units.size() == 5);
    return p;
}
// The default scene's draw in 2,000-reference units, every third one sampled after a 4,000-reference
// warm-up: at least five blocks.
SamplePlan every_third_unit_plan(const scene::Scene& s) {
    SampleOptions o;
    o.unit_refs = 2000;
    o.period = 3;
    o.warmup = 4000;
    o.min_samples = 1;
    o.min_phase_samples = 1;
    SamplePlan p = plan_sampling(s, o);
    REQUIRE(p.blocks.size() >= 5);
    return p;
}
}  // namespace

TEST_CASE("sampling: the stratified estimate is E + sum N_h mean_h, half-width z sqrt(sum N_h^2 s_h^2 / n_h)",
          "[sampling]") {
    // Stratum 1: 1, 2, 3, 4 of 8 units (mean 2.5, s^2 = 5/3); stratum 2: 10, 10 of 4 (s^2 = 0).
    const Estimate e = stratified_estimate(7.0, {stratum({1, 2, 3, 4}, 8), stratum({10, 10}, 4)}, 3.0);
    CHECK(e.value == Approx(7.0 + 8 * 2.5 + 4 * 10));
    CHECK(e.half_width == Approx(3.0 * std::sqrt(64.0 * (5.0 / 3.0) / 4.0)));
}

TEST_CASE("sampling: a stratum with an auxiliary is estimated by regression on it, its variance from the residuals",
          "[sampling]") {
    // 4 of 10 units: y = 2 x + 1 but for the last (+1); the 10 units' x sum to 60.
    Stratum h;
    h.values = {3, 5, 9, 12};
    h.aux = {1, 2, 4, 5};
    h.units = 10;
    h.aux_total = 60;
    const double xm = 3, ym = 29.0 / 4, sxx = 4 + 1 + 1 + 4;
    const double sxy = (-2) * (3 - ym) + (-1) * (5 - ym) + 1 * (9 - ym) + 2 * (12 - ym);
    const double b = sxy / sxx;
    double se = 0;
    for (size_t i = 0; i < 4; ++i) se += std::pow(h.values[i] - ym - b * (h.aux[i] - xm), 2);
    const Estimate e = stratified_estimate(5.0, {h}, 3.0);
    CHECK(e.value == Approx(5.0 + 10 * ym + b * (60 - 10 * xm)));
    CHECK(e.half_width == Approx(3.0 * std::sqrt(100.0 * (se / 2) / 4)));
    // Every x alike: the mean (the auxiliary cannot be fitted).
    h.aux = {2, 2, 2, 2};
    CHECK(stratified_estimate(0.0, {h}, 3.0).value == Approx(10 * ym));
}

TEST_CASE("sampling: the interval adds the warm-up's bias allowance on the sampled part, not the exact part",
          "[sampling]") {
    const Estimate plain = stratified_estimate(1000.0, {stratum({1, 2, 3, 4}, 8)}, 3.0);
    const Estimate biased = stratified_estimate(1000.0, {stratum({1, 2, 3, 4}, 8)}, 3.0, 0.005);
    CHECK(biased.value == plain.value);
    CHECK(biased.half_width == Approx(plain.half_width + 0.005 * 8 * 2.5));
}

TEST_CASE("sampling: a unit's vertices shaded are its post-transform cache misses from its draw's start",
          "[sampling]") {
    const scene::Scene s = scene::default_scene();  // one indexed list
    SampleOptions o;
    o.unit_refs = 300;
    const SamplePlan p = plan_sampling(s, o);
    const auto* d = std::get_if<scene::DrawIndexedPrimitive>(&s.commands.back().body);
    REQUIRE(d);
    const scene::Buffer* ib = nullptr;
    for (const scene::Command& c : s.commands)
        if (const auto* si = std::get_if<scene::SetIndices>(&c.body)) ib = &s.buffers.at(*si->buffer);
    REQUIRE(ib);
    std::vector<uint32_t> indices;
    for (uint64_t i = 0; i < p.references; ++i) indices.push_back(ib->index(d->start_index + i));
    pipe::PostTransformCache cache(o.cache);
    uint64_t shaded = 0, pos = 0;
    for (const SampleUnit& u : p.units) {  // unit by unit, the cache carried over (one draw)
        uint64_t misses = 0;
        for (uint64_t end = pos + u.references; pos < end; ++pos) misses += cache.lookup(indices[pos]) ? 0 : 1;
        CHECK(u.shaded == misses);
        shaded += u.shaded;
    }
    CHECK(shaded == pipe::measure_vertex_reuse(indices, d->type, o.cache).shaded);
    CHECK(shaded < p.references);  // the sphere's vertices are reused
}

TEST_CASE("sampling: a draw is cut into whole primitives whose references add up, sub-scenes start later",
          "[sampling]") {
    const scene::Scene s = scene::default_scene();  // one indexed list of 19,602 triangles
    SampleOptions o;
    o.unit_refs = 300;
    o.period = 5;
    const SamplePlan p = plan_sampling(s, o);
    REQUIRE(p.units.size() == 196);  // 19,602 / 100 triangles per unit, rounded
    CHECK(p.references == 3 * 19602);
    CHECK(p.phases.size() == 1);
    CHECK(p.samples == 39);  // one per period of 5 of the 194 units between the first and the last (whole)
    const scene::Scene sub = sub_scene(s, p, 10, 12);
    const auto* d = std::get_if<scene::DrawIndexedPrimitive>(&sub.commands.back().body);
    REQUIRE(d);
    CHECK(d->start_index == 3 * p.units[10].first);
    CHECK(*d->primitive_count == p.units[12].end - p.units[10].first);
    CHECK(sub.commands.size() == s.commands.size());  // every state command kept
}

TEST_CASE("sampling: phases whose draws run in the same state are one kind, sampled together", "[sampling]") {
    // The default sphere cut into 42 draws, a render state alternating between two values before
    // them: 42 phases of 2 kinds, each kind 21 phases of one draw.
    scene::Scene s = scene::default_scene();
    REQUIRE(scene::is_draw(s.commands.back().body));
    s.commands.pop_back();
    for (uint32_t i = 0; i < 42; ++i) {
        scene::SetRenderState rs;
        rs.state = 36;  // FOGSTART
        rs.value = float(i % 2 + 1);
        std::memcpy(&rs.dword, &rs.value, 4);
        s.commands.push_back({rs, fmt::format("/commands/{}", s.commands.size())});
        scene::DrawIndexedPrimitive d;
        d.num_vertices = 10000;
        d.start_index = i * 1380;
        d.primitive_count = 460;
        s.commands.push_back({d, fmt::format("/commands/{}", s.commands.size())});
    }
    SampleOptions o;
    o.unit_refs = 1380;  // a unit a draw (460 triangles)
    o.period = 2;
    o.min_samples = 20;
    const SamplePlan p = plan_sampling(s, o);
    REQUIRE(p.units.size() == 42);
    CHECK(p.phases.size() == 42);
    CHECK(p.kinds == 2);
    for (size_t h = 0; h < p.phases.size(); ++h) CHECK(p.phases[h].kind == h % 2);
    // The scene's first and last units whole; each kind's other 20 units (each starts a phase: the
    // kind's stratum 2 k + 1) hold 10 periods of 2.
    CHECK(p.whole_units == 2);
    CHECK(p.samples == 20);
    CHECK(p.stratum_units == std::vector<uint64_t>{0, 20, 0, 20});
    std::vector<char> sampled(p.units.size(), 0);
    for (const SampleBlock& b : p.blocks)
        if (b.sampled) sampled[b.first] = 1;
    // Kind 0's units are 2, 4, ..., 40 and kind 1's 1, 3, ..., 39; ordered by their vertices shaded
    // (scene order among equals), one sample in each pair.
    for (size_t k = 0; k < 2; ++k) {
        std::vector<size_t> us;
        for (size_t u = 2 - k; u <= 40 - k; u += 2) us.push_back(u);
        std::stable_sort(us.begin(), us.end(), [&p](size_t a, size_t b) { return p.units[a].shaded < p.units[b].shaded; });
        for (size_t j = 0; j < 10; ++j) CHECK(sampled[us[2 * j]] + sampled[us[2 * j + 1]] == 1);
    }
    CHECK(p.blocks.front().first == 0);
    CHECK_FALSE(p.blocks.front().sampled);
    CHECK(p.blocks.back().last == 41);
    CHECK_FALSE(p.blocks.back().sampled);
}

TEST_CASE("sampling: a block's sub-scene leaves out the state replaced before its first draw, its draws shade the same",
          "[sampling]") {
    // The default sphere cut into 42 draws, its register-0 constants written again before each: a
    // block from draw 30 needs only the last of the 31 writes before it, and every other command.
    scene::Scene s = scene::default_scene();
    const scene::Command draw = s.commands.back();
    REQUIRE(std::holds_alternative<scene::DrawIndexedPrimitive>(draw.body));
    s.commands.pop_back();
    const auto writes_c0 = [](const scene::Command& c) {
        const auto* k = std::get_if<scene::SetVertexShaderConstant>(&c.body);
        return k && k->reg == 0;
    };
    const auto c0 = std::find_if(s.commands.begin(), s.commands.end(), writes_c0);
    REQUIRE(c0 != s.commands.end());
    const scene::Command again = *c0;
    for (uint32_t i = 0; i < 42; ++i) {
        s.commands.push_back(again);
        scene::DrawIndexedPrimitive d = std::get<scene::DrawIndexedPrimitive>(draw.body);
        d.start_index = i * 1380;
        d.primitive_count = 460;
        s.commands.push_back({d, fmt::format("/commands/{}", s.commands.size())});
    }
    SampleOptions o;
    o.unit_refs = 1380;  // a unit a draw
    o.period = 2;
    o.min_samples = 20;
    const SamplePlan p = plan_sampling(s, o);
    REQUIRE(p.units.size() == 42);
    SamplePlan keep_all = p;
    keep_all.replaced.clear();
    const scene::Scene sub = sub_scene(s, p, 30, 31, true, true), all = sub_scene(s, keep_all, 30, 31, true, true);
    CHECK(std::count_if(all.commands.begin(), all.commands.end(), writes_c0) == 33);  // the scene's, 31, 1 between
    CHECK(std::count_if(sub.commands.begin(), sub.commands.end(), writes_c0) == 2);
    CHECK(sub.commands.size() == all.commands.size() - 31);
    const scene::FunctionalResult a = scene::run_functional(sub, vs::Profile::d3d8());
    const scene::FunctionalResult b = scene::run_functional(all, vs::Profile::d3d8());
    REQUIRE(a.draws.size() == 2);
    REQUIRE(b.draws.size() == 2);
    for (size_t d = 0; d < 2; ++d) {
        REQUIRE(a.draws[d].vertices.size() == b.draws[d].vertices.size());
        for (size_t v = 0; v < a.draws[d].vertices.size(); ++v)
            REQUIRE(vs::same_bits(a.draws[d].vertices[v], b.draws[d].vertices[v]));
    }
}

TEST_CASE("sampling: with the whole history as warm-up the units' cycles sum to the full run's", "[sampling]") {
    const scene::Scene s = scene::default_scene();
    const ParamSet params = sc::default_params();
    const SamplePlan p = whole_history_plan(s);
    scene::Scene copy = s;
    const SampleResult r = run_sampled(copy, p, params, vs::Profile::d3d8(), {}, 3.0);
    const sc::RunResult full = sc::run_pipeline(s, params, vs::Profile::d3d8());
    CHECK(r.cycles.value == double(full.cycles));
    CHECK(copy.buffers.size() == s.buffers.size());  // the buffers lent to the runs are back
}

TEST_CASE("sampling: the units' cycles sum to the full run's when the scene sets its state again before its first draw",
          "[sampling]") {
    // The default scene with its constant writes issued twice before its draw: the first copies are
    // replaced before the draw. The first block runs from the run's start, whose cycles hold every
    // command's; the others, measured from a mark, leave the replaced ones out.
    scene::Scene s = scene::default_scene();
    const scene::Command draw = s.commands.back();
    s.commands.pop_back();
    const size_t n = s.commands.size();
    for (size_t i = 0; i < n; ++i)
        if (std::holds_alternative<scene::SetVertexShaderConstant>(s.commands[i].body)) s.commands.push_back(s.commands[i]);
    s.commands.push_back(draw);
    const ParamSet params = sc::default_params();
    const SamplePlan p = whole_history_plan(s);
    REQUIRE(std::count_if(p.replaced.begin(), p.replaced.end(), [&](size_t r) { return r < p.units[0].command; }) > 0);
    scene::Scene copy = s;
    const SampleResult r = run_sampled(copy, p, params, vs::Profile::d3d8(), {}, 3.0);
    const sc::RunResult full = sc::run_pipeline(s, params, vs::Profile::d3d8());
    CHECK(r.cycles.value == double(full.cycles));
}

TEST_CASE("sampling: a unit near its draw's start is warmed from the draw's start and the run-ahead before it",
          "[sampling]") {
    // Two draws (commands 1 and 3) of ten 100-reference units each.
    SamplePlan p;
    p.warmup = 5000;
    for (size_t u = 0; u < 20; ++u) {
        SampleUnit x;
        x.command = u < 10 ? 1 : 3;
        x.references = 100;
        p.units.push_back(x);
    }
    CHECK(warmup_start(p, 12, 64) == 9);   // the draw's first unit (10), then one unit: 100 >= 64 references
    CHECK(warmup_start(p, 12, 150) == 8);  // two units hold 150
    CHECK(warmup_start(p, 5, 64) == 0);    // the first draw starts the scene
    CHECK(warmup_start(p, 10, 64) == 9);   // a draw's first unit
    // The draw started 300 references before unit 13; with the run-ahead that is at least 250.
    p.warmup = 250;
    CHECK(warmup_start(p, 13, 64) == 10);
    CHECK(warmup_start(p, 19, 64) == 16);
}

TEST_CASE("sampling: each block is one run of the timing model: its warm-up, its units and the next unit", "[sampling]") {
    const scene::Scene s = scene::default_scene();
    const SamplePlan p = every_third_unit_plan(s);
    scene::Scene copy = s;
    const SampleResult r = run_sampled(copy, p, sc::default_params(), vs::Profile::d3d8(), {}, 3.0);
    CHECK(r.runs == p.blocks.size());
    // Each block's units, the whole units of warm-up before it and its cool-down: the next unit
    // (a unit's 2,000 references hold the output's order queue of 64 the index fetch may be ahead).
    uint64_t refs = 0;
    for (const SampleBlock& b : p.blocks) {
        size_t w = b.first;
        for (uint64_t n = 0; w > 0 && n < p.warmup;) n += p.units[--w].references;
        const size_t to = std::min(b.last + 1, p.units.size() - 1);
        for (size_t u = w; u <= to; ++u) refs += p.units[u].references;
    }
    CHECK(r.detail_references == refs);
}

TEST_CASE("sampling: the blocks' runs make each shader once in a program cache they share, with the same estimate",
          "[sampling]") {
    const scene::Scene s = scene::default_scene();
    const SamplePlan p = every_third_unit_plan(s);
    sc::RunOptions with;
    with.programs = std::make_shared<scene::ProgramCache>();
    scene::Scene copy = s;
    const SampleResult a = run_sampled(copy, p, sc::default_params(), vs::Profile::d3d8(), with, 3.0);
    const uint64_t made = with.programs->misses();
    CHECK(made >= 1);                                 // the scene's CreateVertexShader
    CHECK(with.programs->hits() >= made * (a.runs - 1));  // every later block's run takes it from the cache
    const SampleResult b = run_sampled(copy, p, sc::default_params(), vs::Profile::d3d8(), with, 3.0);
    CHECK(with.programs->misses() == made);
    CHECK(b.cycles.value == a.cycles.value);
    CHECK(b.cycles.half_width == a.cycles.half_width);
}

TEST_CASE("sampling: a sampled run's stats.json has its estimate, interval and blocks, a full run's half-width is 0",
          "[sampling]") {
    const scene::Scene s = scene::default_scene();
    SampleOptions o;
    o.unit_refs = 300;
    o.warmup = 1000;
    const SamplePlan p = plan_sampling(s, o);
    scene::Scene copy = s;
    const SampleResult r = run_sampled(copy, p, sc::default_params(), vs::Profile::d3d8(), {}, 3.0);
    const nlohmann::json j = nlohmann::json::parse(sample_stats_json("default", r).dump());
    CHECK(is_sampled_stats(j));
    CHECK(j["cycles"].get<int64_t>() == std::llround(r.cycles.value));
    CHECK(sampled_half_width(j) == Approx(r.cycles.half_width));
    CHECK(j["sample"]["blocks"].size() == p.blocks.size());
    // One kind in one phase, sampled: the estimate is the first and last units' exact cycles plus the
    // regression estimate from the blocks' cycles and vertices shaded, N the units between them.
    double exact = 0;
    Stratum h;
    h.units = p.units.size() - 2;
    for (size_t u = 1; u + 1 < p.units.size(); ++u) h.aux_total += double(p.units[u].shaded);
    for (const auto& b : j["sample"]["blocks"]) {
        if (b["phase"].is_null()) {
            exact += b["cycles"].get<double>();
        } else {
            h.values.push_back(b["cycles"].get<double>());
            h.aux.push_back(b["shaded"].get<double>());
        }
    }
    CHECK(r.cycles.value == Approx(stratified_estimate(exact, {h}, 3.0).value));
    CHECK(sampled_half_width(nlohmann::json{{"schema", "vpsim-stats-1"}, {"cycles", 1}}) == 0);
}

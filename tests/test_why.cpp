// vpsim why's analysis (model/study/why.h): which parameters are relaxed and how, which are
// skipped and why, the stall counters that moved, pairs that only help together, whether the
// summary's bottleneck agrees; and the scene window (model/scene/scene_window.h).
#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"
#include "model/scene/scene_window.h"
#include "model/study/why.h"

#include <catch2/catch.hpp>

#include <algorithm>

using namespace vpsim;
using namespace vpsim::study;

namespace {

ParamTable kinds_table() {
    return ParamTable("demo", "a unit for the tests")
        .add_uint("queue", "entries", 6, "a queue", "assumed", 1, 10).kind(ParamKind::Capacity)
        .add_uint("per_cycle", "items/cycle", 3, "a rate", "assumed", 1, 64).kind(ParamKind::Rate)
        .add_uint("latency", "cycles", 9, "a latency", "assumed", 1, 64).kind(ParamKind::Latency)
        .add_uint("full", "entries", 10, "at its maximum", "assumed", 1, 10).kind(ParamKind::Capacity)
        .add_uint("fast", "cycles", 1, "at its minimum", "assumed", 1, 64).kind(ParamKind::Latency)
        .add_uint("off", "lines", 0, "0 = none", "assumed", 0, 64).kind(ParamKind::Capacity)
        .add_uint("plain", "bytes", 64, "not a kind", "assumed", 4, 4096);
}

std::string set_of(const Plan& p, const std::string& key) {
    for (const auto& r : p.variants)
        if (r.key == key) return r.set();
    return "";
}

std::string skip_of(const Plan& p, const std::string& key) {
    for (const auto& s : p.skipped)
        if (s.key == key) return s.why;
    return "";
}

// stats.json-shaped: units/UNIT/cycles/stalled/REASON/cycles.
nlohmann::json stats(uint64_t cycles, uint64_t a, uint64_t b, uint64_t c) {
    nlohmann::json j;
    j["cycles"] = cycles;
    j["units"]["u"]["cycles"]["stalled"]["a"]["cycles"] = a;
    j["units"]["u"]["cycles"]["stalled"]["b"]["cycles"] = b;
    j["units"]["v"]["cycles"]["stalled"]["c"]["cycles"] = c;
    return j;
}

}  // namespace

TEST_CASE("why: capacities and rates are multiplied, latencies divided, rounded toward the relaxed side") {
    const Plan p = plan_relaxations(ParamSet({kinds_table()}), 2.0);
    CHECK(set_of(p, "demo.queue") == "demo.queue=10");  // 12 is beyond the maximum: the maximum
    CHECK(set_of(p, "demo.per_cycle") == "demo.per_cycle=6");
    CHECK(set_of(p, "demo.latency") == "demo.latency=4");  // 9 / 2 rounded down
    const Plan q = plan_relaxations(ParamSet({kinds_table()}), 1.5);
    CHECK(set_of(q, "demo.per_cycle") == "demo.per_cycle=5");  // 4.5 rounded up
    CHECK(set_of(q, "demo.latency") == "demo.latency=6");
}

TEST_CASE("why: a parameter at its limit or 0 is skipped, saying why") {
    const Plan p = plan_relaxations(ParamSet({kinds_table()}), 2.0);
    CHECK(skip_of(p, "demo.full") == "at its maximum (10)");
    CHECK(skip_of(p, "demo.fast") == "at its minimum (1)");
    CHECK(skip_of(p, "demo.off") == "0 (see its description) is not scaled by x2");
}

TEST_CASE("why: a parameter without a kind is neither relaxed nor listed as skipped") {
    const Plan p = plan_relaxations(ParamSet({kinds_table()}), 2.0);
    CHECK(set_of(p, "demo.plain").empty());
    CHECK(skip_of(p, "demo.plain").empty());
    CHECK(p.variants.size() + p.skipped.size() == 6);
}

TEST_CASE("why: the timing model's units declare their capacities, rates and latencies") {
    const ParamSet params = sc::default_params();
    const Plan p = plan_relaxations(params, 2.0);
    CHECK(set_of(p, "output.order_queue") == "output.order_queue=128");
    CHECK(set_of(p, "memory.latency") == "memory.latency=40");
    CHECK(set_of(p, "vertex_alu.contexts") == "vertex_alu.contexts=6");
    CHECK(set_of(p, "memory.bytes_per_cycle") == "memory.bytes_per_cycle=72");
    CHECK(skip_of(p, "front_end.command_cycles") == "at its minimum (1)");
    // Policies, shapes and the clock are not relaxed.
    for (const char* k : {"vertex_fetch.line_bytes", "pipeline.clock_mhz", "vertex_alu.coissue", "decl_decoder.const_count"}) {
        CHECK(set_of(p, k).empty());
        CHECK(skip_of(p, k).empty());
    }
}

TEST_CASE("why: the stall counters that moved most come first, unmoved ones are left out") {
    const auto m = stall_moves(stats(100, 50, 10, 7), stats(80, 20, 15, 7), 5);
    REQUIRE(m.size() == 2);
    CHECK(m[0].counter == "u.a");
    CHECK(m[0].change() == -30);
    CHECK(m[1].counter == "u.b");
    CHECK(m[1].change() == 5);
    CHECK(stall_moves(stats(100, 50, 10, 7), stats(80, 20, 15, 7), 1).size() == 1);
}

namespace {

const Relaxation ra{"u.a", ParamKind::Capacity, 1, 2}, rb{"u.b", ParamKind::Capacity, 1, 2};

// u.a alone saves 10 of 1000 cycles, u.b alone 100; ranked.
std::vector<Effect> ranked_singles(const nlohmann::json& base) {
    std::vector<Effect> e = {measure({ra}, base, stats(990, 0, 0, 0), 3), measure({rb}, base, stats(900, 0, 0, 0), 3)};
    rank(e);
    return e;
}

}  // namespace

TEST_CASE("why: variants rank by cycles saved") {
    const std::vector<Effect> e = ranked_singles(stats(1000, 0, 0, 0));
    CHECK(e[0].changes[0].key == "u.b");
    CHECK(e[0].saved == 100);
    CHECK(e[0].percent == Approx(10.0));
}

TEST_CASE("why: a pair only helps together above the sum of its parts") {
    const nlohmann::json base = stats(1000, 0, 0, 0);
    std::vector<Effect> e = ranked_singles(base);
    Effect together = measure({ra, rb}, base, stats(700, 0, 0, 0), 3);
    combine(together, {&e[0], &e[1]}, 1000);
    CHECK(together.parts_sum == 110);
    CHECK(together.synergy);
    Effect additive = measure({ra, rb}, base, stats(892, 0, 0, 0), 3);  // 108 < 110 + 5
    combine(additive, {&e[0], &e[1]}, 1000);
    CHECK_FALSE(additive.synergy);
    CHECK_FALSE(additive.same_limit);
}

TEST_CASE("why: two relaxations that save no more together than the better one relieve the same limit") {
    const Relaxation ra{"u.a", ParamKind::Capacity, 1, 2}, rb{"u.b", ParamKind::Latency, 8, 4};
    const nlohmann::json base = stats(1000, 0, 0, 0);
    const Effect a = measure({ra}, base, stats(820, 0, 0, 0), 3), b = measure({rb}, base, stats(830, 0, 0, 0), 3);
    Effect both = measure({ra, rb}, base, stats(818, 0, 0, 0), 3);
    combine(both, {&a, &b}, 1000);
    CHECK(both.same_limit);
    CHECK_FALSE(both.synergy);
    const Effect none = measure({rb}, base, stats(1000, 0, 0, 0), 3);  // a part that does nothing alone
    Effect c = measure({ra, rb}, base, stats(820, 0, 0, 0), 3);
    combine(c, {&a, &none}, 1000);
    CHECK_FALSE(c.same_limit);
}

TEST_CASE("why: the summary's bottleneck agrees when the top parameter is its unit's, or its memory's") {
    const std::map<std::string, std::vector<std::string>> tables = {
        {"vertex_fetch", {"vertex_fetch"}}, {"memory", {"memory"}}, {"output", {"output"}},
        {"index_fetch", {"index_fetch", "post_transform_cache"}}};
    const std::map<std::string, std::string> memory = {{"vertex_fetch", "memory"}};
    const nlohmann::json fetch = {{"unit", "vertex_fetch"}, {"reason", "memory_latency"}};
    CHECK(agreement(fetch, "vertex_fetch.max_misses", 5, tables, memory).agrees);
    const Agreement mem = agreement(fetch, "memory.latency", 5, tables, memory);
    CHECK(mem.agrees);
    CHECK(mem.text.find("a parameter of the memory it waits for") != std::string::npos);
    const Agreement no = agreement(fetch, "output.order_queue", 18.4, tables, memory);
    CHECK_FALSE(no.agrees);
    CHECK(no.text.find("disagrees") == 0);
    CHECK(agreement({{"unit", "index_fetch"}, {"reason", "busy"}}, "post_transform_cache.entries", 1, tables, memory).agrees);
    CHECK(agreement({{"unit", "output"}, {"reason", "capacity"}, {"capacity_key", "vertex_fetch.queue"}},
                    "vertex_fetch.queue", 1, tables, memory)
              .agrees);
}

TEST_CASE("why: a scene's window keeps the draws whose references fit the budget, at least one") {
    std::vector<scene::DrawSize> d = {{0, 300}, {1, 300}, {2, std::nullopt}, {3, 300}};
    CHECK(scene::draws_within(d, 0) == 4);
    CHECK(scene::draws_within(d, 100) == 1);
    CHECK(scene::draws_within(d, 600) == 3);  // the patch counts as none
    CHECK(scene::draws_within(d, 10000) == 4);
    scene::Scene s = scene::default_scene();
    const auto sizes = scene::draw_sizes(s);
    REQUIRE(sizes.size() == 1);
    CHECK(sizes[0].references == 58806u);
}

TEST_CASE("why: keep_draws drops every command after the N-th draw") {
    scene::Scene s = scene::default_scene();
    const size_t before = s.commands.size();
    const size_t draw = scene::draw_sizes(s)[0].command;
    s.commands.push_back(s.commands[draw]);
    s.commands.push_back(s.commands[0]);
    scene::keep_draws(s, 1);
    CHECK(s.commands.size() == draw + 1);
    scene::Scene t = scene::default_scene();
    scene::keep_draws(t, 5);  // fewer draws: whole
    CHECK(t.commands.size() == before);
}

// The parameter registry: tables, --config / --set overrides, errors, JSON round trip; and
// the statistics groups.
#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/pipe/post_transform_cache.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <functional>

using namespace vpsim;
using Catch::Matchers::Contains;

namespace {

ParamTable demo_table() {
    return ParamTable("demo", "a unit for the tests")
        .add_bool("enabled", true, "switch", "assumed")
        .add_uint("entries", "entries", 24, "FIFO size", "GeForce3", 0, 1024)
        .add_int("bias", "cycles", -2, "signed offset", "assumed", -100, 100)
        .add_double("clock", "MHz", 200.0, "core clock", "NV20 200 MHz", 1.0)
        .add_enum("policy", {"fifo", "lru"}, "fifo", "replacement", "assumed");
}

ParamTable other_table() {
    return ParamTable("other", "a second unit").add_uint("width", "bytes/cycle", 16, "port width", "assumed");
}

ParamSet demo_set() { return ParamSet({demo_table(), other_table()}); }

std::string error_of(const std::function<void()>& f) {
    try {
        f();
    } catch (const ParamError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

TEST_CASE("Defaults are the table's defaults, read through typed getters", "[params]") {
    const ParamSet p = demo_set();
    CHECK(p.get_bool("demo.enabled") == true);
    CHECK(p.get_uint("demo.entries") == 24);
    CHECK(p.get_int("demo.bias") == -2);
    CHECK(p.get_double("demo.clock") == 200.0);
    CHECK(p.get_enum("demo.policy") == "fifo");
    CHECK(p.is_default("demo.entries"));
    // Tables are in the order given (the timing model gives them in its topology's order).
    REQUIRE(p.tables().size() == 2);
    CHECK(p.tables()[0].unit == "demo");
    CHECK(p.tables()[1].unit == "other");
    // A getter of the wrong type is an error naming the parameter's type.
    CHECK_THAT(error_of([&] { p.get_int("demo.entries"); }), Contains("uint"));
}

TEST_CASE("An unknown key is an error that lists the valid keys of the unit", "[params]") {
    ParamSet p = demo_set();
    const std::string e = error_of([&] { p.apply_set("demo.entrys=16"); });
    CHECK_THAT(e, Contains("demo.entrys"));
    CHECK_THAT(e, Contains("demo.entries (uint)"));
    CHECK_THAT(e, Contains("demo.policy (enum)"));
    const std::string j = error_of([&] { p.apply_json(nlohmann::json::parse(R"({"demo": {"size": 4}})"), "cfg.json"); });
    CHECK_THAT(j, Contains("cfg.json"));
    CHECK_THAT(j, Contains("demo.size"));
    CHECK_THAT(j, Contains("demo.entries (uint)"));
}

TEST_CASE("An unknown unit is an error that lists the valid units", "[params]") {
    ParamSet p = demo_set();
    for (const std::string& e : {error_of([&] { p.apply_set("dmeo.entries=1"); }),
                                 error_of([&] { p.apply_json(nlohmann::json::parse(R"({"dmeo": {}})")); }),
                                 error_of([&] { p.apply_set("entries=1"); })}) {
        CHECK_THAT(e, Contains("valid units: demo, other"));
    }
    CHECK_THAT(error_of([&] { p.apply_set("demo.entries"); }), Contains("unit.param=value"));
}

TEST_CASE("An ill-typed value is an error naming the expected type", "[params]") {
    ParamSet p = demo_set();
    SECTION("uint") {
        CHECK_THAT(error_of([&] { p.apply_set("demo.entries=abc"); }), Contains("demo.entries: expected uint in [0, 1024]"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.entries=-1"); }), Contains("negative"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.entries=2.5"); }), Contains("not an integer"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.entries=2000"); }), Contains("out of range"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.entries="); }), Contains("expected uint"));
        CHECK_THAT(error_of([&] { p.apply_json({{"demo", {{"entries", -1}}}}); }), Contains("expected uint"));
        CHECK_THAT(error_of([&] { p.apply_json({{"demo", {{"entries", "16"}}}}); }), Contains("expected uint"));
        CHECK_THAT(error_of([&] { p.apply_json({{"demo", {{"entries", true}}}}); }), Contains("expected uint"));
    }
    SECTION("int") {
        CHECK_THAT(error_of([&] { p.apply_json({{"demo", {{"bias", 3.5}}}}); }),
                   Contains("demo.bias: expected int in [-100, 100], got 3.5 (not an integer)"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.bias=3.5"); }), Contains("expected int"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.bias=x"); }), Contains("expected int"));
    }
    SECTION("bool, double, enum") {
        CHECK_THAT(error_of([&] { p.apply_set("demo.enabled=maybe"); }), Contains("expected bool"));
        CHECK_THAT(error_of([&] { p.apply_json({{"demo", {{"enabled", 1}}}}); }), Contains("expected bool"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.clock=fast"); }), Contains("expected double >= 1"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.clock=0.5"); }), Contains("out of range"));
        CHECK_THAT(error_of([&] { p.apply_set("demo.policy=random"); }), Contains("expected enum {fifo, lru}"));
        CHECK_THAT(error_of([&] { p.apply_json({{"demo", {{"policy", 1}}}}); }), Contains("expected enum {fifo, lru}"));
    }
    // A rejected value leaves the set unchanged, even when other keys of the config were good.
    CHECK_THROWS_AS(p.apply_json({{"demo", {{"entries", 8}, {"bias", "x"}}}}), ParamError);
    CHECK(p.get_uint("demo.entries") == 24);
}

TEST_CASE("The text form of a set assignment parses for every type", "[params]") {
    ParamSet p = demo_set();
    p.apply_set("demo.enabled=false");
    p.apply_set("demo.entries=0x10");
    p.apply_set("demo.bias=-7");
    p.apply_set("demo.clock=233.5");
    p.apply_set("demo.policy=lru");
    CHECK(p.get_bool("demo.enabled") == false);
    CHECK(p.get_uint("demo.entries") == 16);
    CHECK(p.get_int("demo.bias") == -7);
    CHECK(p.get_double("demo.clock") == 233.5);
    CHECK(p.get_enum("demo.policy") == "lru");
    CHECK_FALSE(p.is_default("demo.entries"));
    // An integer is accepted for a double.
    p.apply_json({{"demo", {{"clock", 250}}}});
    CHECK(p.get_double("demo.clock") == 250.0);
}

TEST_CASE("A config file overrides defaults and --set applied after it wins", "[params]") {
    const std::string path = "test_params_config.json";
    {
        std::ofstream f(path);
        f << R"({"demo": {"entries": 16, "policy": "lru"}, "other": {"width": 32}})";
    }
    ParamSet p = demo_set();
    p.apply_config_file(path);
    p.apply_set("demo.entries=12");
    CHECK(p.get_uint("demo.entries") == 12);  // --set after --config
    CHECK(p.get_enum("demo.policy") == "lru");
    CHECK(p.get_uint("other.width") == 32);
    CHECK(p.get_int("demo.bias") == -2);  // untouched keys keep their default
    std::remove(path.c_str());
    CHECK_THAT(error_of([&] { p.apply_config_file("no-such-file.json"); }), Contains("no-such-file.json"));
    {
        std::ofstream f(path);
        f << "{ not json";
    }
    CHECK_THAT(error_of([&] { p.apply_config_file(path); }), Contains("not valid JSON"));
    std::remove(path.c_str());
    CHECK_THAT(error_of([&] { p.apply_json(nlohmann::json::array()); }), Contains("expected a JSON object"));
    CHECK_THAT(error_of([&] { p.apply_json({{"demo", 3}}); }), Contains("valid keys"));
}

TEST_CASE("to_json holds every resolved value and round-trips through apply_json", "[params]") {
    ParamSet p = demo_set();
    p.apply_set("demo.bias=5");
    p.apply_set("demo.policy=lru");
    const nlohmann::ordered_json j = p.to_json();
    CHECK(j["demo"].size() == 5);
    CHECK(j["other"].size() == 1);
    CHECK(j["demo"]["bias"] == 5);
    ParamSet q = demo_set();
    q.apply_json(nlohmann::json::parse(j.dump()));
    CHECK(q.to_json() == j);
    CHECK(q.get_int("demo.bias") == 5);
}

TEST_CASE("take_values sets every parameter of its tables to the other set's value, as apply_json of them", "[params]") {
    ParamSet from = demo_set();
    from.apply_set("demo.bias=5");
    from.apply_set("demo.policy=lru");
    from.apply_set("other.width=32");
    ParamSet taken({demo_table()});  // a subset of the tables: only those are read
    taken.take_values(from, "the run's parameters");
    ParamSet applied({demo_table()});
    nlohmann::json values;
    for (const ParamDef& d : demo_table().params) values["demo"][d.name] = from.value("demo." + d.name);
    applied.apply_json(values, "the run's parameters");
    CHECK(taken.to_json() == applied.to_json());
    CHECK(taken.get_int("demo.bias") == 5);
    CHECK(taken.get_enum("demo.policy") == "lru");
    CHECK_FALSE(taken.is_default("demo.bias"));
    CHECK(taken.is_set("demo.entries") == applied.is_set("demo.entries"));
}

TEST_CASE("Table definitions are checked: duplicate units and bad defaults are rejected", "[params]") {
    CHECK_THROWS_AS(ParamSet({demo_table(), demo_table()}), std::logic_error);
    CHECK_THROWS_AS(ParamSet({ParamTable("u", "").add_uint("a", "", 5, "", "", 0, 4)}), std::logic_error);
    CHECK_THROWS_AS(ParamSet({ParamTable("u", "").add_uint("a", "", 1, "", "").add_bool("a", true, "", "")}),
                    std::logic_error);
}

namespace {
struct BoundParams {
    uint32_t depth = 6;
    double rate = 2.5;
    bool on = true;
    std::string mode = "fifo";
    static const ParamBindings<BoundParams>& bindings() {
        static const auto b = ParamBindings<BoundParams>("bound", "a unit declared once")
                                  .uint("depth", "entries", &BoundParams::depth, "queue depth", "assumed", 1, 64)
                                  .real("rate", "items/cycle", &BoundParams::rate, "rate", "assumed", 0.0, 10.0)
                                  .boolean("on", &BoundParams::on, "enabled", "assumed")
                                  .choice("mode", {"fifo", "lru"}, &BoundParams::mode, "policy", "assumed");
        return b;
    }
};
}  // namespace

TEST_CASE("One binding list gives a unit's table with its defaults and reads resolved values back", "[params]") {
    const ParamTable& t = BoundParams::bindings().table();
    REQUIRE(t.params.size() == 4);
    CHECK(t.find("depth")->default_value == 6);
    CHECK(t.find("depth")->max == 64);
    CHECK(t.find("rate")->default_value == 2.5);
    CHECK(t.find("mode")->allowed == std::vector<std::string>{"fifo", "lru"});
    ParamSet p({t});
    p.apply_set("bound.depth=12");
    p.apply_set("bound.on=false");
    p.apply_set("bound.mode=lru");
    const BoundParams r = BoundParams::bindings().from(p);
    CHECK(r.depth == 12);
    CHECK(r.rate == 2.5);
    CHECK_FALSE(r.on);
    CHECK(r.mode == "lru");
    CHECK_THROWS_AS(p.apply_set("bound.depth=65"), ParamError);
}

TEST_CASE("Statistics have counters, stall reasons and rates, and cycles must add up", "[params]") {
    StatGroup g("unit_a", "a timed unit");
    Counter& items = g.counter("items", "vertices", "vertices out");
    StallReason full = g.stall_reason("output_full", "downstream full");
    const StallReason empty = g.stall_reason("input_empty", "nothing to do but a draw is open");
    CHECK(full.index == 0);
    CHECK(empty.index == 1);
    g.rate("items_per_cycle", "items", "cycles", "vertices/cycle", "throughput");
    items += 6;
    g.busy(6);
    full += 1;
    g.stall("input_empty", 2);
    g.idle(1);
    CHECK(g.stalled_cycles() == 3);
    CHECK(g.stalled_cycles("output_full") == 1);
    CHECK(g.accounted_cycles() == 10);
    CHECK(g.rate_value("items_per_cycle", 10) == Approx(0.6));
    CHECK_THROWS_AS(g.stall("nope"), std::logic_error);
    CHECK_THROWS_AS(g.counter("items", "", ""), std::logic_error);
    CHECK_THROWS_AS(g.rate("r", "missing", "cycles", "", ""), std::logic_error);

    StatGroup f("unit_b", "functional", false);
    f.counter("lookups", "indices", "");
    StatGroup h("unit_c", "timed, one cycle short");
    h.busy(9);

    StatsReport r;
    r.add(g);
    r.add(f);
    r.add(h);
    const auto bad = r.check_cycles_add_up(10);
    REQUIRE(bad.size() == 1);
    CHECK_THAT(bad[0], Contains("unit_c"));
    const auto j = r.to_json(10);
    CHECK(j["schema"] == "vpsim-stats-1");
    CHECK(j["cycles"] == 10);
    CHECK(j["units"]["unit_a"]["cycles"]["busy"] == 6);
    CHECK(j["units"]["unit_a"]["cycles"]["stalled"]["output_full"]["cycles"] == 1);
    CHECK(j["units"]["unit_a"]["cycles"]["adds_up"] == true);
    CHECK(j["units"]["unit_a"]["counters"]["items"]["value"] == 6);
    CHECK(j["units"]["unit_a"]["rates"]["items_per_cycle"]["value"] == Approx(0.6));
    CHECK(j["units"]["unit_b"]["cycles"].is_null());
    CHECK(j["units"]["unit_c"]["cycles"]["adds_up"] == false);
    g.reset();
    CHECK(g.accounted_cycles() == 0);
    CHECK(g.get("items") == 0);
}

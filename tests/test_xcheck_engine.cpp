// The cross-check engine (tb/xcheck_engine.h) on a unit of its own: a toy adapter whose "design"
// squares its input with two planted bugs, so that what the engine does (order, counting,
// triage, keeping, --first-mismatch, JUnit test cases) is seen apart from any real unit's.
#include "tb/xcheck_engine.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <string>
#include <thread>
#include <vector>

using namespace vpsim::tb;

namespace {

// Case i is the number i (a named case any number); the design gives i*i, but i*i+1 when
// i % 50 == 7 and nothing when i % 200 == 13.
struct Toy {
    struct Case {
        uint64_t x = 0;
    };
    struct Checker {
        int thread = 0;
        std::thread::id made_on;
    };
    struct Counts {
        uint64_t sum = 0, odd = 0;
        void add(const Counts& o) { sum += o.sum, odd += o.odd; }
    };
    struct Sides {
        int64_t expected = 0, actual = 0;
    };

    std::vector<Kept<Toy>> kept;
    std::vector<bool> shrunk;
    std::vector<std::string> also;  // also_mismatch's replays
    bool wrong_thread = false;

    std::unique_ptr<Checker> checker(int t) { return std::make_unique<Checker>(Checker{t, std::this_thread::get_id()}); }
    void chunk_start(Checker& k) {
        if (k.made_on != std::this_thread::get_id()) wrong_thread = true;
    }
    void stimulus(Checker&, uint64_t i, Case& c) { c.x = i; }
    Verdict check(Checker&, const Case& c, Counts& n, Sides* s) {
        n.sum += c.x;
        n.odd += c.x % 2;
        const int64_t want = int64_t(c.x * c.x);
        if (c.x % 200 == 13) {
            if (s) s->expected = want, s->actual = -1;
            return {fmt::format("{}: missing", c.x), "missing output"};
        }
        const int64_t got = c.x % 50 == 7 ? want + 1 : want;
        if (got == want) return {};
        if (s) s->expected = want, s->actual = got;
        return {fmt::format("{}: expected {} got {}", c.x, want, got), "value"};
    }
    std::string where(const Case& c) const { return fmt::format("case {}", c.x); }
    std::string replay(const Case& c) const { return fmt::format("toy --only {}", c.x); }
    void also_mismatch(const Case&, const std::string& r) { also.push_back(r); }
    void keep(Kept<Toy>&& k, bool shrink) {
        kept.push_back(std::move(k));
        shrunk.push_back(shrink);
    }
    RecordKey record_of_random(uint64_t first) const {
        RecordKey r;
        r.key = fmt::format("random {}", first / 100);
        r.proto.classname = "toy.random";
        r.proto.name = fmt::format("cases from {}", first / 100 * 100);
        return r;
    }
};

struct Result {
    uint64_t cases, mismatches, sum, odd;
    std::vector<uint64_t> kept;
    std::vector<std::string> groups;  // "signature count"
    std::vector<std::string> records;  // "name arrays mismatches"
};

Result run(int jobs, uint64_t random, uint64_t per_chunk, size_t keep, bool first = false, bool records = false) {
    Toy unit;
    EngineOptions o;
    o.random = random;
    o.per_chunk = per_chunk;
    o.jobs = jobs;
    o.keep = keep;
    o.first_mismatch = first;
    o.records = records;
    Engine<Toy> eng(unit, o);
    eng.check_random();
    REQUIRE_FALSE(unit.wrong_thread);
    Result r{eng.cases(), eng.mismatches(), eng.counts().sum, eng.counts().odd, {}, {}, {}};
    for (const auto& k : unit.kept) r.kept.push_back(k.c.x);
    for (const auto& g : eng.triage().groups()) r.groups.push_back(fmt::format("{} {}", g.signature, g.count));
    for (const auto& c : eng.records()) r.records.push_back(fmt::format("{} {} {}", c.name, c.arrays, c.mismatches));
    return r;
}

}  // namespace

TEST_CASE("Engine: every random case is checked once and counted, the same for 1, 2 and 3 threads") {
    for (int jobs : {1, 2, 3}) {
        const Result r = run(jobs, 1000, 64, 5);
        CAPTURE(jobs);
        CHECK(r.cases == 1000);
        CHECK(r.sum == 999 * 1000 / 2);
        CHECK(r.odd == 500);
        // 20 cases with i % 50 == 7, 5 with i % 200 == 13 (none is both)
        CHECK(r.mismatches == 25);
        CHECK(r.groups == std::vector<std::string>{"value 20", "missing output 5"});
    }
}

TEST_CASE("Engine: the first `keep` mismatches are kept in case order, with their sides, whatever the threads") {
    for (int jobs : {1, 2}) {
        Toy unit;
        EngineOptions o;
        o.random = 1000;
        o.per_chunk = 10;
        o.jobs = jobs;
        o.keep = 4;
        Engine<Toy> eng(unit, o);
        eng.check_random();
        REQUIRE(unit.kept.size() == 4);
        CHECK(unit.kept[0].c.x == 7);
        CHECK(unit.kept[1].c.x == 13);
        CHECK(unit.kept[1].sides.actual == -1);
        CHECK(unit.kept[2].c.x == 57);
        CHECK(unit.kept[2].sides.actual == 57 * 57 + 1);
        CHECK(unit.kept[3].c.x == 107);
        CHECK(unit.kept[3].replay == "toy --only 107");
        CHECK(unit.shrunk == std::vector<bool>(4, true));
        CHECK(unit.also.size() == 25);  // every mismatch, kept or not
    }
}

TEST_CASE("Engine: --first-mismatch stops at the first mismatch in case order, unshrunk, though threads checked ahead") {
    const Result r = run(2, 100000, 3, 5, true);
    CHECK(r.mismatches == 1);
    CHECK(r.kept == std::vector<uint64_t>{7});
    CHECK(r.cases == 8);  // the chunks merged: [0, 3), [3, 6), and [6, 9) stopped after 7
}

TEST_CASE("Engine: JUnit test cases group the random chunks by the adapter's key, each with its first failure") {
    Toy unit;
    EngineOptions o;
    o.random = 300;
    o.per_chunk = 50;
    o.jobs = 2;
    o.records = true;
    Engine<Toy> eng(unit, o);
    eng.check_random();
    REQUIRE(eng.records().size() == 3);
    CHECK(eng.records()[0].name == "cases from 0");
    CHECK(eng.records()[0].arrays == 100);
    CHECK(eng.records()[0].mismatches == 3);  // 7, 13, 57
    CHECK(eng.records()[0].failure == "case 7: 7: expected 49 got 50\nreplay: toy --only 7");
    CHECK(eng.records()[1].mismatches == 2);  // 107, 157
    CHECK(eng.records()[2].arrays == 100);
    CHECK(eng.records()[2].mismatches == 3);  // 207, 213, 257
}

TEST_CASE("Engine: named cases come first, counted as random ones are, and a named mismatch ends a --first-mismatch run") {
    Toy unit;
    EngineOptions o;
    o.random = 100;
    o.first_mismatch = true;
    o.records = true;
    Engine<Toy> eng(unit, o);
    auto k = unit.checker(0);
    RecordKey rec;
    rec.key = "named";
    rec.proto.name = "the named cases";
    eng.check_named(*k, Toy::Case{4}, rec);
    eng.check_named(*k, Toy::Case{407}, rec);
    eng.check_named(*k, Toy::Case{5}, rec);  // after the stop: not checked
    eng.check_random();
    CHECK(eng.cases() == 2);
    CHECK(eng.mismatches() == 1);
    CHECK(eng.counts().sum == 411);
    REQUIRE(unit.kept.size() == 1);
    CHECK(unit.kept[0].c.x == 407);
    CHECK(unit.shrunk == std::vector<bool>{false});
    REQUIRE(eng.records().size() == 1);
    CHECK(eng.records()[0].arrays == 2);
    CHECK(eng.records()[0].mismatches == 1);
}

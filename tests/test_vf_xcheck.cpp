// The vertex fetch cross-check's oracles (tb/vf_xcheck.h) on the built-in RTL, without a
// run-time Verilator build: the request sequence rtl/vertex_fetch.sv makes is the one
// expected_requests() computes (directed and seeded random cases), a different one is named, and a
// design that ignores idx_flush reads the old memory and is caught (the memory changes at every
// flushed vertex).
#include "model/rtl/vertex_fetch_pins.h"
#include "tb/vf_xcheck.h"
#include "tests/test_seed.h"
#include "tests/test_temp_file.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

using namespace vpsim;
using namespace vpsim::rtl::vf;
using namespace vpsim::tb::vf;

namespace {

// The built-in RTL with idx_flush held low: it reuses the word it holds across a flush.
class IgnoresFlush : public Pins {
public:
    IgnoresFlush() : rtl_(builtin_vertex_fetch()) {}
    void set_inputs(const Inputs& in, bool layout_changed) override {
        Inputs i = in;
        i.idx_flush = false;
        rtl_->set_inputs(i, layout_changed);
    }
    void outputs(Outputs& o, bool regs) const override { rtl_->outputs(o, regs); }
    void clock() override { rtl_->clock(); }
    void reset() override { rtl_->reset(); }
    bool broken() const override { return rtl_->broken(); }
    void clear_error() override { rtl_->clear_error(); }

private:
    std::unique_ptr<Pins> rtl_;
};

std::string check(Pins& rtl, const Case& c, SideResult& r) {
    rtl.reset();
    run_case(rtl, c, r, nullptr);
    return compare(c, golden(c), r);
}

// The directed case "directed flush" run on a design that ignores idx_flush.
Case flush_case_on_ignores_flush(SideResult& r) {
    Case flush;
    for (const Case& c : directed_cases())
        if (c.origin == "directed flush") flush = c;
    IgnoresFlush rtl;
    rtl.reset();
    run_case(rtl, flush, r, nullptr);
    return flush;
}

// Drives the built-in design region by region and, in lockstep, by Verilator's eval()
// (model/rtl/vertex_fetch_cc.cpp, "One region per step"); every outputs() call compares all their outputs, out_regs included.
class Lockstep : public Pins {
public:
    Lockstep() : a_(builtin_vertex_fetch(Eval::Regions)), b_(builtin_vertex_fetch(Eval::VerilatorEval)) {}
    void set_inputs(const Inputs& in, bool layout_changed) override {
        a_->set_inputs(in, layout_changed);
        b_->set_inputs(in, layout_changed);
    }
    void outputs(Outputs& o, bool regs) const override {
        Outputs x, y;
        a_->outputs(x, true);
        b_->outputs(y, true);
        ++compared;
        bool same = x.idx_ready == y.idx_ready && x.mem_req_valid == y.mem_req_valid &&
                    x.mem_req_addr == y.mem_req_addr && x.mem_req_words == y.mem_req_words &&
                    x.out_valid == y.out_valid && x.out_index == y.out_index && x.out_loaded == y.out_loaded;
        for (unsigned k = 0; k < kRegs * 4; ++k) same = same && x.out_regs[k] == y.out_regs[k];
        if (!same) ++differ;
        a_->outputs(o, regs);
    }
    void clock() override {
        a_->clock();
        b_->clock();
    }
    void reset() override {
        a_->reset();
        b_->reset();
    }
    bool broken() const override { return a_->broken() || b_->broken(); }
    bool both_broken_alike() const { return a_->broken() == b_->broken(); }
    void clear_error() override {
        a_->clear_error();
        b_->clear_error();
    }
    mutable uint64_t compared = 0, differ = 0;

private:
    std::unique_ptr<Pins> a_, b_;
};

// Two cases driven on `rtl` from reset take the same cycles and make the same memory requests.
void check_same_pins(Pins& rtl, const Case& c, const Case& d) {
    SideResult a, b;
    rtl.reset();
    run_case(rtl, c, a, nullptr);
    rtl.reset();
    run_case(rtl, d, b, nullptr);
    CHECK(a.cycles == b.cycles);
    CHECK(a.requests_made == b.requests_made);
}
}  // namespace

TEST_CASE("The built-in vertex fetch driven region by region equals Verilator's eval() on every output of every cycle",
          "[vf]") {
    Lockstep rtl;
    SideResult r;
    uint64_t cycles = 0;
    const uint64_t seed = test_seed("vf regions");
    for (uint64_t i = 0; i < 300; ++i) {
        const Case c = random_case(seed, i);
        INFO("random case " << i << " of seed " << seed << ": " << describe(c));
        run_case(rtl, c, r, nullptr);  // no reset between cases: the state carries over
        REQUIRE(rtl.differ == 0);
        REQUIRE(rtl.both_broken_alike());
        cycles += r.cycles;
    }
    CHECK(rtl.compared >= cycles);  // every cycle's outputs were compared
    CHECK(cycles > 300 * 10);
}

TEST_CASE("The built-in RTL makes exactly the requests of its one-word tag", "[vf]") {
    auto rtl = builtin_vertex_fetch();
    SideResult r;
    for (const Case& c : directed_cases()) {
        INFO(c.origin);
        REQUIRE(check(*rtl, c, r).empty());
        CHECK(compare_requests(expected_requests(c), r.requests_made).empty());
    }
    const uint64_t seed = test_seed("vf xcheck requests");
    for (uint64_t i = 0; i < 300; ++i) {
        const Case c = random_case(seed, i);
        INFO("random case " << i << " of seed " << seed << ": " << describe(c));
        REQUIRE(check(*rtl, c, r).empty());
        REQUIRE(compare_requests(expected_requests(c), r.requests_made).empty());
    }
}

TEST_CASE("A request sequence other than the tag's is named: which request, expected and made", "[vf]") {
    const std::vector<Request> exp = {{0x100, 1}, {0x110, 2}, {0x200, 1}};
    CHECK(compare_requests(exp, exp).empty());
    auto more = exp;
    more.insert(more.begin() + 1, {0x100, 1});  // the held word read again
    CHECK(compare_requests(exp, more) ==
          "memory request #1: rtl/vertex_fetch.sv's one-word tag asks for 2 words at 0x00000110, the RTL asked for 1 "
          "word at 0x00000100 (the values were right; --no-check-traffic skips this)");
    CHECK_THAT(compare_requests(exp, {exp[0], exp[1]}), Catch::Contains("request #2") && Catch::Contains("asked for none"));
}

TEST_CASE("A design that ignores idx_flush reads the memory as it was before the flush and fails", "[vf]") {
    Case flush;
    for (const Case& c : directed_cases())
        if (c.origin == "directed flush") flush = c;
    REQUIRE(flush.indices.size() > 2);
    IgnoresFlush rtl;
    SideResult r;
    uint64_t vertex = 0;
    int reg = -1;
    rtl.reset();
    run_case(rtl, flush, r, nullptr);
    const std::string what = compare(flush, golden(flush), r, &vertex, &reg);
    INFO(what);
    CHECK(vertex == 1);  // the first flushed vertex
    CHECK(reg == 2);
    // Without the flushes the same design is right: the difference is the memory's change.
    Case plain = flush;
    std::fill(plain.flush.begin(), plain.flush.end(), 0);
    CHECK(check(rtl, plain, r).empty());
}

// Issue 34: every shrink step keeps the stimulus legal for the unit. With a predicate that any
// case with an element satisfies, the shrinker goes as far as it can: it must never remove a
// STREAM token so that a REG comes before any STREAM (D7, which the lenient decode accepts as
// stream 0 but the generator never makes and the strict decoder rejects), nor break any other
// lenient rule the case did not break.
TEST_CASE("The fetch's shrinker keeps every declaration legal: no lenient rule the case did not break", "[vf]") {
    const uint64_t seed = test_seed("vf xcheck legal shrink");
    int shrunk_some = 0;
    for (uint64_t i = 0; i < 60; ++i) {
        const Case c = random_case(seed, i);
        // Any draw's: whole draws are dropped, the first one too (a later one takes its place).
        uint32_t before = 0;
        for (const Case* d : draws(c)) before |= lenient_rules(d->tokens);
        INFO("random case " << i << " of seed " << seed << ": " << describe(c));
        const Case s = shrink(c, [](const Case& t) {
            for (const auto& e : t.decl.events)
                if (e.kind == decl::EventKind::Element) return true;
            return false;
        });
        INFO("shrunk: " << describe(s));
        CHECK((lenient_rules(s.tokens) & ~before) == 0u);
        CHECK((lenient_rules(s.tokens) >> 7 & 1u) == (before >> 7 & 1u));  // no D7 made
        shrunk_some += s.tokens.size() < c.tokens.size();
    }
    CHECK(shrunk_some > 30);  // the predicate lets it shrink: the check above is not vacuous
}

// Item 6 of issue 34: triage keyed on the first diverging vertex without its values. A design
// that ignores idx_flush fails on every flushed vertex whatever the values: one signature.
TEST_CASE("A fetch mismatch's signature names what differs at the first diverging vertex, not the values", "[vf]") {
    SideResult r;
    const Case flush = flush_case_on_ignores_flush(r);
    std::string sig;
    const std::string what = compare(flush, golden(flush), r, nullptr, nullptr, &sig);
    INFO(what);
    REQUIRE(!what.empty());
    CHECK(sig.rfind("register value (", 0) == 0);
    CHECK(sig.find("0x") == std::string::npos);
    // A vertex fewer: a missing vertex, named so.
    SideResult fewer = r;
    fewer.vertices.clear();
    CHECK(compare(flush, golden(flush), fewer, nullptr, nullptr, &sig).find("vertices expected") != std::string::npos);
    CHECK(sig == "missing vertex");
}

// A case written as a file reads back as the same case: the same golden vertices and the same
// pins, so a replay of the file is exact.
TEST_CASE("A fetch case file reads back as the same case", "[vf]") {
    const uint64_t seed = test_seed("vf xcheck case file");
    auto rtl = builtin_vertex_fetch();
    for (uint64_t i = 0; i < 40; ++i) {
        const Case c = random_case(seed, i);
        INFO("random case " << i << " of seed " << seed);
        const TempFile tmp("vpsim_vf_case_roundtrip", ".json");
        const std::string& file = tmp.path();
        { std::ofstream(file) << case_file_text(c, "replay", "found by", "what"); }
        const Case d = read_case(file);
        CHECK(d.tokens == c.tokens);
        CHECK(d.then.size() == c.then.size());
        CHECK(d.bp_seed == c.bp_seed);
        CHECK(d.timing.req_ready == c.timing.req_ready);
        check_same_pins(*rtl, c, d);
        const auto ga = golden(c), gb = golden(d);
        REQUIRE(ga.size() == gb.size());
        for (size_t k = 0; k < ga.size(); ++k) CHECK(ga[k].regs == gb[k].regs);
    }
}

TEST_CASE("A bad fetch case file is refused naming the file, the field and the rule", "[vf]") {
    const Case c = random_case(1, 0);
    const std::string good = case_file_text(c, "r", "f", "w");
    auto refused = [](const std::string& text) {
        const TempFile tmp("vpsim_vf_case_bad", ".json");
        const std::string& file = tmp.path();
        { std::ofstream(file) << text; }
        try {
            read_case(file);
        } catch (const std::runtime_error& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK_THAT(refused("{"), Catch::Contains("vpsim_vf_case_bad-") && Catch::Contains(".json:1:2: not valid JSON"));
    std::string huge = good;
    huge.replace(huge.find("\"seed\": 1,"), 10, "\"seed\": 1e999,");
    CHECK_THAT(refused(huge), Catch::Contains("vpsim_vf_case_bad-") && Catch::Contains(": 1e999 does not fit a 64-bit float"));
    CHECK_THAT(refused("{}"), Catch::Contains("not a vertex fetch case file"));
    std::string neg = good;
    neg.replace(neg.find("\"seed\": 1,"), 10, "\"seed\": -1,");
    CHECK_THAT(refused(neg), Catch::Contains("\"seed\" must be an unsigned integer"));
    std::string flush = good;
    flush.replace(flush.find("\"flush\": ["), 10, "\"flush\": [1, ");
    CHECK_THAT(refused(flush), Catch::Contains("\"flush\" has") && Catch::Contains("one per vertex"));
}

// --stream K (issue 34, item 2): K random draws back to back, an idle index gap per boundary.
TEST_CASE("A fetch stream is K random cases' draws back to back, no reset, a gap of 0 at about half of the boundaries",
          "[vf]") {
    const uint64_t seed = test_seed("vf xcheck streams");
    int boundaries = 0, none = 0, longest = 0;
    for (uint64_t i = 0; i < 150; ++i) {
        const Case c = random_stream(seed, i, 4);
        INFO("stream " << i << " of seed " << seed);
        REQUIRE(c.then.size() == 3);
        CHECK(c.origin == "stream");
        CHECK(c.index == i);
        const Case first = random_case(seed, 4 * i);
        CHECK(c.tokens == first.tokens);
        CHECK(c.indices == first.indices);
        CHECK(c.mem_seed == first.mem_seed);
        CHECK(c.bp_seed == first.bp_seed);
        for (size_t m = 0; m < 3; ++m) {
            const Case& d = c.then[m];
            const Case r = random_case(seed, 4 * i + m + 1);
            CHECK(d.tokens == r.tokens);
            CHECK(d.base == r.base);
            CHECK(d.stride == r.stride);
            CHECK(d.indices == r.indices);
            CHECK(d.then.empty());
            CHECK(!d.reset_before);
            CHECK(d.gap >= 0);
            CHECK(d.gap <= 8);
            ++boundaries;
            none += d.gap == 0;
            longest = std::max(longest, d.gap);
        }
        // Deterministic: the same stream again.
        const Case again = random_stream(seed, i, 4);
        for (size_t m = 0; m < 3; ++m) CHECK(again.then[m].gap == c.then[m].gap);
    }
    CHECK(none > boundaries * 4 / 10);
    CHECK(none < boundaries * 6 / 10);
    CHECK(longest == 8);
}

namespace {

// The built-in RTL, recording per cycle idx_valid and whether the index was taken.
class Handshakes : public Pins {
public:
    Handshakes() : rtl_(builtin_vertex_fetch()) {}
    void set_inputs(const Inputs& in, bool layout_changed) override {
        valid_ = in.idx_valid;
        rtl_->set_inputs(in, layout_changed);
    }
    void outputs(Outputs& o, bool regs) const override { rtl_->outputs(o, regs); }
    void clock() override {
        Outputs o;
        rtl_->outputs(o, false);
        valid.push_back(valid_);
        taken.push_back(valid_ && o.idx_ready);
        rtl_->clock();
    }
    void reset() override { rtl_->reset(); }
    bool broken() const override { return rtl_->broken(); }
    void clear_error() override { rtl_->clear_error(); }
    std::vector<bool> valid, taken;

private:
    std::unique_ptr<Pins> rtl_;
    bool valid_ = false;
};

}  // namespace

TEST_CASE("A stream offers each draw's first index exactly its gap of idle cycles after the last index before it",
          "[vf]") {
    const uint64_t seed = test_seed("vf xcheck stream gaps");
    int checked = 0;
    for (uint64_t i = 0; i < 40; ++i) {
        const Case c = random_stream(seed, i, 3);
        INFO("stream " << i << " of seed " << seed << ": " << describe(c));
        Handshakes rtl;
        SideResult r;
        rtl.reset();
        run_case(rtl, c, r, nullptr);
        REQUIRE(compare(c, golden(c), r).empty());  // the built-in RTL keeps the contract across boundaries
        std::vector<size_t> take_cycle;
        for (size_t t = 0; t < rtl.taken.size(); ++t)
            if (rtl.taken[t]) take_cycle.push_back(t);
        REQUIRE(take_cycle.size() == vertex_count(c));
        size_t before = c.indices.size();  // vertices before the draw
        for (const Case& d : c.then) {
            const size_t last = take_cycle[before - 1];
            for (size_t t = last + 1; t <= last + size_t(d.gap); ++t) CHECK(!rtl.valid[t]);
            // then high until taken
            for (size_t t = last + size_t(d.gap) + 1; t <= take_cycle[before]; ++t) CHECK(rtl.valid[t]);
            CHECK(take_cycle[before] >= last + size_t(d.gap) + 1);
            before += d.indices.size();
            ++checked;
        }
    }
    CHECK(checked == 80);
}

TEST_CASE("The fetch's shrinker drops whole draws, the first one too, and a stream's case file keeps its gaps", "[vf]") {
    const uint64_t seed = test_seed("vf xcheck stream shrink");
    const Case c = random_stream(seed, 5, 4);
    // "Fails" while draw 3 follows draw 2 with its gap: the shrinker keeps exactly those two.
    const auto t2 = c.then[1].tokens, t3 = c.then[2].tokens;
    const int gap = c.then[2].gap;
    const Case s = shrink(c, [&](const Case& t) {
        const auto d = draws(t);
        for (size_t k = 1; k < d.size(); ++k)
            if (d[k - 1]->tokens == t2 && d[k]->tokens == t3 && d[k]->gap == gap) return true;
        return false;
    });
    INFO(describe(s));
    REQUIRE(s.then.size() == 1);
    CHECK(s.tokens == t2);
    CHECK(s.then[0].tokens == t3);
    CHECK(s.then[0].gap == gap);
    CHECK(s.mem_seed == c.mem_seed);  // the case keeps its memory and back-pressure
    CHECK(s.bp_seed == c.bp_seed);
    CHECK(s.origin == "stream");
    // Its case file replays the same cycles, the gaps included.
    const TempFile tmp("vpsim_vf_stream_case", ".json");
    { std::ofstream(tmp.path()) << case_file_text(c, "replay", "found by", "what"); }
    const Case d = read_case(tmp.path());
    REQUIRE(d.then.size() == 3);
    for (size_t m = 0; m < 3; ++m) CHECK(d.then[m].gap == c.then[m].gap);
    auto rtl = builtin_vertex_fetch();
    check_same_pins(*rtl, c, d);
}

// The engine keeps --show N mismatches for the fetch as for the decoder (tb/xcheck_engine.h):
// the first N in case order, each shrunk; every mismatch is still counted and grouped.
TEST_CASE("The fetch keeps --show N mismatches, the first in case order, and counts every one", "[vf]") {
    Options o;
    o.random = 400;
    o.seed = 3;
    o.directed = false;
    o.jobs = 2;
    o.rtl = [] { return std::unique_ptr<Pins>(new IgnoresFlush); };
    o.show = 2;
    const Report r = run(o);
    REQUIRE(r.mismatches > 2);
    REQUIRE(r.failures.size() == 2);
    CHECK(r.failures[0].c.index < r.failures[1].c.index);
    CHECK_FALSE(r.failures[0].shrunk.indices.empty());
    uint64_t grouped = 0;
    for (const auto& g : r.groups) grouped += g.count;
    CHECK(grouped == r.mismatches);
    o.show = 0;
    const Report none = run(o);
    CHECK(none.failures.empty());
    CHECK(none.mismatches == r.mismatches);
}

// Issue 34 item 6: the pin groups name what differs first in time on the pins. A design that
// ignores idx_flush keeps the held word instead of reading it again: its requests part from the
// expected ones before the flushed vertex leaves with the old memory's bytes.
TEST_CASE("A fetch's pin signature is the pin that differs first in time: the request before the output it feeds", "[vf]") {
    SideResult r;
    const Case flush = flush_case_on_ignores_flush(r);
    const auto exp = golden(flush);
    CHECK(pin_signature(flush, exp, r, true).rfind("mem_req", 0) == 0);
    // Without the memory port checked, the first difference is on the output.
    CHECK(pin_signature(flush, exp, r, false) == "out_regs");
    // And nothing when the design is right.
    auto good = builtin_vertex_fetch();
    SideResult g;
    good->reset();
    run_case(*good, flush, g, nullptr);
    CHECK(pin_signature(flush, exp, g, true).empty());
}

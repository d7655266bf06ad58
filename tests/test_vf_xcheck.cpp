// The vertex fetch cross-check's oracles (tb/vf_xcheck.h) on the built-in RTL, without a
// run-time Verilator build: the request sequence rtl/vertex_fetch.sv makes is the one
// expected_requests() computes (directed and seeded random cases), a different one is named, and a
// design that ignores idx_flush reads the old memory and is caught (the memory changes at every
// flushed vertex).
#include "tb/vf_pins.h"
#include "tb/vf_xcheck.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>

#include <memory>
#include <string>

using namespace vpsim;
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

}  // namespace

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

// The cross-check benches: the fast path (Verilated C++ RTL vs golden model) and the SystemC
// bench (Verilated SystemC RTL vs the SystemC unit), on the corpus and on seeded random arrays.
#include "model/common/process.h"
#include "model/decl/decl_decoder.h"
#include "tb/chunk_scheduler.h"
#include "tb/decl_gen.h"
#include "tb/replay.h"
#include "tb/rtl_coverage.h"
#include "tb/xcheck.h"
#include "tests/test_seed.h"
#include "tests/test_temp_file.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <mutex>
#include <random>
#include <thread>

#include <signal.h>
#include <sys/types.h>
#include <unistd.h>

using namespace vpsim;
using namespace vpsim::tb;

namespace {
const std::string kCorpus = std::string(VPSIM_SOURCE_DIR) + "/tb/corpus";

void require_clean(const XcheckReport& r) {
    for (const auto& m : r.failures) UNSCOPED_INFO(m.array.origin << " #" << m.array.index << ": " << m.first_difference);
    CHECK(r.mismatches == 0);
    CHECK(r.arrays > 0);
}
}  // namespace

TEST_CASE("Fast path: the RTL matches the golden model on the whole corpus, strict and lenient") {
    XcheckOptions o;
    o.corpus = {kCorpus};
    const auto r = run_xcheck(o);
    require_clean(r);
    INFO("holes: " << r.holes.size() << (r.holes.empty() ? "" : " first: " + r.holes.front()));
    CHECK(r.holes.empty());  // the corpus alone hits every token kind, event kind and rule
}

TEST_CASE("Fast path: the RTL matches the golden model on 100,000 seeded random arrays, full coverage") {
    XcheckOptions o;
    o.random = 100000;
    o.seed = test_seed("fast xcheck");
    const auto r = run_xcheck(o);
    require_clean(r);
    CHECK(r.arrays == 100000);
    INFO("holes: " << r.holes.size() << (r.holes.empty() ? "" : " first: " + r.holes.front()));
    CHECK(r.holes.empty());
}

TEST_CASE("Fast path without back-pressure: one token per cycle, CONST and EXT payloads included") {
    Backpressure none{1.0, 1.0};
    const std::vector<uint32_t> t = {decl::D3DVSD_CONST(0, 2), 0xFFFFFFFFu, 0, 1, 2, 3, 4, 5, 6,
                                     decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, 2), decl::D3DVSD_EXT(3, 9), 7, 8, 9,
                                     decl::D3DVSD_END()};
    const auto rtl = run_rtl(t, false, 1, none);
    const auto model = run_model(t, false, 1, none);
    CHECK(compare(model, rtl) == "");
    CHECK(rtl.cycles == t.size() + 1);  // n tokens in n cycles, then the END leaves the output register
    CHECK(rtl.events.size() == 6);  // 2 CONST, STREAM, ELEMENT, EXT, END
}

// tb/rtl_cc_side.cpp, "One region per step": set_inputs runs only the input-combinational region
// and clock only the NBA region. Both ways run on one instance each, array after array without a
// reset (the state carries over as in a chunk), with random back-pressure; every pin of every cycle,
// the events, the cycles and the assertion flags must be equal. A region skipped that mattered
// (a stale in_ready, a missed edge) shows as a pin that differs.
TEST_CASE("The built-in RTL driven region by region equals Verilator's eval() on every pin of every cycle") {
    const uint64_t seed = test_seed("rtl regions");
    auto regions = builtin_rtl(RtlEval::Regions);
    auto reference = builtin_rtl(RtlEval::VerilatorEval);
    ArrayCase c;
    GenScratch scratch;
    std::vector<CycleSample> ta, tb;
    SideResult a, b;
    a.trace = &ta;
    b.trace = &tb;
    uint64_t cycles = 0;
    for (uint64_t i = 0; i < 20000; ++i) {
        random_case(seed, i, c, scratch);
        ta.clear();
        tb.clear();
        regions->run_into(c.tokens, c.lenient, c.bp_seed, Backpressure{}, a);
        reference->run_into(c.tokens, c.lenient, c.bp_seed, Backpressure{}, b);
        INFO("seed " << seed << " array " << i);
        REQUIRE(ta.size() == tb.size());
        for (size_t k = 0; k < ta.size(); ++k) {
            INFO("cycle " << k);
            REQUIRE(ta[k].in_valid == tb[k].in_valid);
            REQUIRE(ta[k].in_ready == tb[k].in_ready);
            REQUIRE(ta[k].out_ready == tb[k].out_ready);
            REQUIRE(ta[k].out_valid == tb[k].out_valid);
            REQUIRE(ta[k].event == tb[k].event);
        }
        REQUIRE(a.events == b.events);
        REQUIRE(a.cycles == b.cycles);
        REQUIRE(a.timed_out == b.timed_out);
        REQUIRE(a.assertion_failed == b.assertion_failed);
        cycles += a.cycles;
    }
    CHECK(cycles > 20000 * 10);  // the arrays were driven, not skipped
}

TEST_CASE("SystemC bench: RTL and SystemC unit give identical events and equal cycle counts on the corpus") {
    const auto arrays = load_corpus(kCorpus);
    const auto r = run_sc_bench(arrays, Backpressure{}, "");
    REQUIRE(r.rtl.size() == arrays.size());
    REQUIRE(r.model.size() == arrays.size());
    size_t diffs = 0, cross_diffs = 0;
    for (size_t i = 0; i < arrays.size(); ++i) {
        const std::string d = compare(r.model[i], r.rtl[i]);
        if (!d.empty() && ++diffs <= 5) UNSCOPED_INFO(arrays[i].origin << (arrays[i].lenient ? " lenient" : "") << ": " << d);
        // Across benches and implementations: the SystemC unit in the SystemC bench against the
        // Verilated C++ RTL under the fast path's handshake loop (drive.h), same back-pressure
        // seed. Equal events and cycles mean both benches apply the same stimulus cycle by cycle.
        const std::string x = compare(r.model[i], run_rtl(arrays[i].tokens, arrays[i].lenient, arrays[i].bp_seed, {}));
        if (!x.empty() && ++cross_diffs <= 5)
            UNSCOPED_INFO(arrays[i].origin << (arrays[i].lenient ? " lenient" : "")
                                           << ": SystemC unit vs the C++ RTL of the fast path: " << x);
    }
    CHECK(diffs == 0);
    CHECK(cross_diffs == 0);
}

TEST_CASE("SystemC bench: RTL and SystemC unit agree on seeded random arrays") {
    const uint64_t seed = test_seed("systemc xcheck");
    XcheckOptions o;
    o.systemc = true;
    o.random = 3000;
    o.seed = seed;
    const auto r = run_xcheck(o);
    require_clean(r);
}

TEST_CASE("compare() reports the first differing event, a missing event and a cycle difference") {
    SideResult a, b;
    decl::Event e1;
    e1.kind = decl::EventKind::End;
    e1.value = 3;
    a.events = {e1};
    b.events = {e1};
    a.cycles = b.cycles = 3;
    CHECK(compare(a, b) == "");
    b.cycles = 4;
    CHECK(compare(a, b).find("cycles") != std::string::npos);
    b.cycles = 3;
    b.events[0].value = 4;
    CHECK(compare(a, b).find("event 0") != std::string::npos);
    b.events.clear();
    CHECK(compare(a, b).find("rtl has none") != std::string::npos);
}

TEST_CASE("shrink() reduces a failing array to a small one that still fails") {
    // "Fails" when the array holds a type-6 token after a STREAM token.
    auto fails = [](const std::vector<uint32_t>& t) {
        bool stream = false;
        for (uint32_t w : t) {
            if (w == decl::D3DVSD_STREAM(3)) stream = true;
            if (stream && (w >> 29) == 6) return true;
        }
        return false;
    };
    std::vector<uint32_t> t;
    for (int i = 0; i < 30; ++i) t.push_back(decl::D3DVSD_REG(uint32_t(i % 16), 0));
    t[7] = decl::D3DVSD_STREAM(3);
    t[23] = 0xC0000001u;
    REQUIRE(fails(t));
    const auto s = shrink(t, fails);
    CHECK(fails(s));
    CHECK(s == std::vector<uint32_t>{decl::D3DVSD_STREAM(3), 0xC0000001u});
}

TEST_CASE("The generator's valid arrays decode without error in strict mode") {
    const uint64_t seed = test_seed("gen_valid");
    Rng rng(seed);
    for (int i = 0; i < 20000; ++i) {
        const auto t = gen_valid(rng);
        const auto d = decl::decode(t);
        INFO("array " << i);
        REQUIRE(d.valid);
    }
}

TEST_CASE("Random arrays replay one by one from their seed and number") {
    const auto a = random_case(42, 1234), b = random_case(42, 1234), c = random_case(42, 1235);
    CHECK(a.tokens == b.tokens);
    CHECK(a.bp_seed == b.bp_seed);
    CHECK((a.tokens != c.tokens || a.bp_seed != c.bp_seed));
}

TEST_CASE("Random arrays generated into reused buffers equal the freshly allocated ones") {
    const uint64_t seed = test_seed("xcheck reused buffers");
    GenScratch scratch;
    ArrayCase reused;
    for (uint64_t i = 0; i < 20000; ++i) {
        random_case(seed, i, reused, scratch);
        const ArrayCase fresh = random_case(seed, i);
        INFO("array " << i);
        REQUIRE(reused.tokens == fresh.tokens);
        REQUIRE(reused.lenient == fresh.lenient);
        REQUIRE(reused.bp_seed == fresh.bp_seed);
        REQUIRE(reused.origin == "random");
        REQUIRE(reused.index == i);
    }
}

namespace {
// The built-in RTL behind a wrapper that plants two bugs and checks the threading rule: every
// call comes from the thread that made the instance. One bug depends on the array only (every
// array whose length is 5 mod 37 gets one cycle more); the other on the decoder's history
// since reset (the 1500th array after a reset loses its last event): both must be found in
// the same places for any --jobs.
class PlantedDut : public RtlDut {
public:
    PlantedDut() : inner_(builtin_rtl()), owner_(std::this_thread::get_id()) {}
    void run_into(const std::vector<uint32_t>& t, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                  SideResult& out) override {
        if (std::this_thread::get_id() != owner_) throw std::logic_error("an RtlDut was used by another thread");
        inner_->run_into(t, lenient, bp_seed, bp, out);
        if (t.size() % 37 == 5) ++out.cycles;
        if (++since_reset_ == 1500 && !out.events.empty()) out.events.pop_back();
    }
    void reset() override {
        if (std::this_thread::get_id() != owner_) throw std::logic_error("an RtlDut was reset by another thread");
        inner_->reset();
        since_reset_ = 0;
    }

private:
    std::unique_ptr<RtlDut> inner_;
    std::thread::id owner_;
    uint64_t since_reset_ = 0;
};

std::string fingerprint(const XcheckReport& r) {
    std::string s = fmt::format("arrays {} tokens {} events {} cycles {} mismatches {}\n", r.arrays, r.tokens, r.events,
                                r.cycles, r.mismatches);
    s += r.coverage.table();
    for (const auto& m : r.failures)
        s += fmt::format("{} #{}: {} | shrunk {} tokens: {}\n", m.array.origin, m.array.index, m.first_difference,
                         m.shrunk.size(), m.shrunk_difference);
    for (const auto& c : r.cases) s += fmt::format("case {}: {} arrays, {} mismatches, {}\n", c.name, c.arrays, c.mismatches, c.failure);
    return s;
}
}  // namespace

TEST_CASE("Threads (--jobs N): the arrays checked and the report are the same for any N, each instance used on its own thread") {
    const uint64_t seed = test_seed("xcheck jobs");
    const std::string dir =
        (std::filesystem::temp_directory_path() / fmt::format("vpsim-xcheck-jobs-{}", std::random_device{}())).string();
    std::filesystem::create_directories(dir);
    XcheckOptions o;
    o.random = 9 * kRandomChunk + 123;  // a partial last chunk
    o.seed = seed;
    o.mismatch_dir = dir;
    o.case_batch = 5 * kRandomChunk;
    o.rtl = [] { return std::unique_ptr<RtlDut>(new PlantedDut); };
    o.jobs = 1;
    const XcheckReport one = run_xcheck(o);
    // Every planted bug is found: the history one once per full chunk (its 1500th array).
    uint64_t planted = 0;
    for (uint64_t i = 0; i < o.random; ++i)
        planted += random_case(seed, i).tokens.size() % 37 == 5 || i % kRandomChunk == 1499;
    CHECK(one.mismatches == planted);
    REQUIRE(one.failures.size() == 5);
    REQUIRE(one.cases.size() == 2);
    for (int jobs : {2, 3, 8}) {
        o.jobs = jobs;
        const XcheckReport r = run_xcheck(o);
        INFO("--jobs " << jobs);
        CHECK(fingerprint(r) == fingerprint(one));
    }
    // --first-mismatch stops at the same array with the same totals.
    o.first_mismatch = true;
    o.case_batch = 0;
    o.jobs = 1;
    const XcheckReport first1 = run_xcheck(o);
    REQUIRE(first1.failures.size() == 1);
    o.jobs = 2;
    const XcheckReport first2 = run_xcheck(o);
    CHECK(fingerprint(first2) == fingerprint(first1));
    CHECK(first1.arrays < o.random);
    std::filesystem::remove_all(dir);
}

namespace {
// A chunk scheduler's work whose chunks take uneven times (a later chunk is often done first) and
// whose result is the chunk's number and the thread that checked it.
struct ChunkProbe {
    int thread = -1;
};
struct ChunkOut {
    uint64_t chunk = 0;
    int thread = -1;
};
ChunkWork<ChunkProbe, ChunkOut> uneven_work(std::vector<uint64_t>& merged, uint64_t stop_after = ~uint64_t(0)) {
    ChunkWork<ChunkProbe, ChunkOut> w;
    w.make = [](int t) {
        auto p = std::make_unique<ChunkProbe>();
        p->thread = t;
        return p;
    };
    w.check = [](ChunkProbe& p, uint64_t c, ChunkOut& r) {
        std::this_thread::sleep_for(std::chrono::microseconds((c * 7919) % 5 * 300));
        r.chunk = c, r.thread = p.thread;
    };
    w.merge = [&merged, stop_after](ChunkOut& r, uint64_t c) {
        CHECK(r.chunk == c);
        merged.push_back(c);
        return c < stop_after;
    };
    return w;
}
}  // namespace

TEST_CASE("Chunk scheduler: the chunks are merged in order, each once, for any number of threads") {
    for (int jobs : {1, 2, 3, 8}) {
        INFO("jobs " << jobs);
        std::vector<uint64_t> merged;
        run_chunks(40, jobs, uneven_work(merged));
        std::vector<uint64_t> expected(40);
        for (uint64_t c = 0; c < 40; ++c) expected[c] = c;
        CHECK(merged == expected);
    }
}

TEST_CASE("Chunk scheduler: a merge that returns false stops the run there, though threads checked ahead") {
    for (int jobs : {1, 2, 4}) {
        INFO("jobs " << jobs);
        std::vector<uint64_t> merged;
        run_chunks(40, jobs, uneven_work(merged, 9));
        CHECK(merged.size() == 10);
        CHECK(merged.back() == 9);
    }
}

TEST_CASE("Chunk scheduler: a thread's error is thrown on the calling thread, naming the thread when there are several") {
    std::vector<uint64_t> merged;
    auto w = uneven_work(merged);
    w.check = [](ChunkProbe&, uint64_t c, ChunkOut& r) {
        if (c == 5) throw std::runtime_error("chunk 5 broke");
        r.chunk = c;
    };
    CHECK_THROWS_WITH(run_chunks(20, 1, w), "chunk 5 broke");
    merged.clear();
    CHECK_THROWS_WITH(run_chunks(20, 3, w), Catch::StartsWith("--jobs thread ") && Catch::EndsWith(": chunk 5 broke"));
    CHECK(merged.size() <= 5);  // nothing after the broken chunk is merged
}

TEST_CASE("Chunk scheduler: each thread's checker is made and finished on its own thread, once") {
    std::vector<uint64_t> merged;
    auto w = uneven_work(merged);
    std::mutex mu;
    std::map<int, std::thread::id> made, finished;
    w.make = [&](int t) {
        std::lock_guard<std::mutex> lock(mu);
        CHECK(made.emplace(t, std::this_thread::get_id()).second);
        auto p = std::make_unique<ChunkProbe>();
        p->thread = t;
        return p;
    };
    w.finish = [&](ChunkProbe& p, int t) {
        std::lock_guard<std::mutex> lock(mu);
        CHECK(p.thread == t);
        CHECK(finished.emplace(t, std::this_thread::get_id()).second);
    };
    run_chunks(30, 3, w);
    CHECK(made.size() == 3);
    CHECK(finished == made);
}

TEST_CASE("Threads (--jobs N): an instance that cannot be made on a worker thread is an error, not a hang") {
    XcheckOptions o;
    o.random = 3 * kRandomChunk;
    o.jobs = 2;
    auto made = std::make_shared<std::atomic<int>>(0);
    o.rtl = [made]() -> std::unique_ptr<RtlDut> {
        if (made->fetch_add(1) > 0) throw std::runtime_error("no more instances");
        return builtin_rtl();
    };
    CHECK_THROWS_WITH(run_xcheck(o), Catch::Contains("--jobs thread") && Catch::Contains("no more instances"));
}

TEST_CASE("Several RTL instances on one thread, made and destroyed in crossing order, each check correctly") {
    // Verilator's per-thread current context (tb/rtl_cc_side.cpp): before each instance made
    // its own current, destroying the first after the second was gone touched freed memory
    // (ASan: heap-use-after-free in VerilatedContextImp::scopeErase).
    const ArrayCase c = random_case(7, 3);
    const SideResult want = run_model(c.tokens, c.lenient, c.bp_seed, {});
    for (int round = 0; round < 3; ++round) {
        auto a = builtin_rtl();
        auto b = builtin_rtl();
        CHECK(compare(want, a->run(c.tokens, c.lenient, c.bp_seed, {})) == "");
        b.reset();
        CHECK(compare(want, a->run(c.tokens, c.lenient, c.bp_seed, {})) == "");
        auto d = builtin_rtl();
        a.reset();
        CHECK(compare(want, d->run(c.tokens, c.lenient, c.bp_seed, {})) == "");
    }
}

TEST_CASE("Coverage reports every bin that was never hit") {
    Coverage c;
    CHECK_FALSE(c.holes().empty());
    c.count_tokens({decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, 3), decl::D3DVSD_END()});
    const auto h = c.holes();
    CHECK(std::find(h.begin(), h.end(), "token STREAM") == h.end());
    CHECK(std::find(h.begin(), h.end(), "token TESSUV") != h.end());
    CHECK(std::find(h.begin(), h.end(), "strict rule D7 (rtl)") != h.end());
}

// Bring-your-own RTL (model/rtl/user_rtl.h): the port check and the -G parser, without Verilator.
#include "model/rtl/user_rtl.h"
using namespace vpsim::rtl;

TEST_CASE("User RTL: the contract's own port list passes the port check, any change is listed") {
    CHECK(check_ports(contract_ports(), "t") == "");
    auto ports = contract_ports();
    ports[4].width = 31;                         // in_token
    ports[3].dir = "input";                      // in_ready
    ports.erase(ports.begin() + 14);             // out_data
    ports.push_back({"extra", "input", 1, "x.sv:9"});
    const std::string msg = check_ports(ports, "t");
    CHECK(msg.find("port in_token is 31 bits wide, the contract says 32") != std::string::npos);
    CHECK(msg.find("port in_ready is an input, the contract says output") != std::string::npos);
    CHECK(msg.find("missing port out_data (output [128])") != std::string::npos);
    CHECK(msg.find("port extra is not in the contract (x.sv:9)") != std::string::npos);
    CHECK(msg.find("expected:") != std::string::npos);
    CHECK(msg.find("found:") != std::string::npos);
}

TEST_CASE("User RTL: Verilator's XML gives the top module's ports, widths, lines and parameters") {
    const std::string xml = R"(<verilator_xml><files><file id="c" filename="/x/d.sv" language="1800-2017"/></files>
<cells><cell loc="c,3,8,3,20" name="d" submodname="d" hier="d"/></cells><netlist>
<module loc="c,3,8,3,20" name="d" origName="d">
<var loc="c,4,19,4,30" name="CONST_COUNT" dtype_id="1" vartype="int" origName="CONST_COUNT" param="true">
<const loc="c,4,19,4,30" name="32&apos;h64" dtype_id="1"/></var>
<var loc="c,5,26,5,29" name="clk" dtype_id="3" dir="input" pinIndex="1" vartype="logic" origName="clk"/>
<var loc="c,6,26,6,34" name="in_token" dtype_id="4" dir="input" pinIndex="2" vartype="logic" origName="in_token"/>
<var loc="c,7,26,7,34" name="tmp" dtype_id="4" vartype="logic" origName="tmp"/>
</module>
<typetable loc="a,0,0,0,0"><basicdtype loc="c,1,1,1,1" id="1" name="int" left="31" right="0" signed="true"/>
<basicdtype loc="c,38,12,38,17" id="3" name="logic"/><basicdtype loc="c,43,12,43,17" id="4" name="logic" left="31" right="0"/>
</typetable></netlist></verilator_xml>)";
    const XmlTop t = parse_verilator_xml(xml);
    CHECK(t.top == "d");
    REQUIRE(t.ports.size() == 2);
    CHECK(t.ports[0].name == "clk");
    CHECK(t.ports[0].width == 1);
    CHECK(t.ports[1].width == 32);
    CHECK(t.ports[1].dir == "input");
    CHECK(t.ports[1].where == "/x/d.sv:6");
    REQUIRE(t.params.size() == 1);
    CHECK(t.params[0] == "CONST_COUNT");
    CHECK(verilator_param_values(xml, "d") == std::map<std::string, std::string>{{"CONST_COUNT", "100"}});  // 32'h64
    CHECK(verilator_param_values(xml, "other").empty());
    CHECK_THROWS_AS(parse_verilator_xml("<verilator_xml></verilator_xml>"), std::runtime_error);
}

TEST_CASE("User RTL: -G arguments are NAME=VALUE with an identifier and a plain literal") {
    CHECK(parse_param("CONST_COUNT=192") == std::pair<std::string, std::string>("CONST_COUNT", "192"));
    CHECK(parse_param("W=32'd7").second == "32'd7");
    CHECK_THROWS_AS(parse_param("CONST_COUNT"), RtlBuildError);
    CHECK_THROWS_AS(parse_param("=3"), RtlBuildError);
    CHECK_THROWS_AS(parse_param("1X=3"), RtlBuildError);
    CHECK_THROWS_AS(parse_param("X=$(rm -rf)"), RtlBuildError);
}

TEST_CASE("User RTL: run_command gives the tool's stdout and stderr as one text and how it ended") {
    std::string out;
    CHECK(run_command({"sh", "-c", "echo one; echo two >&2; echo three; exit 3"}, "", out) == 3);
    CHECK(out == "one\ntwo\nthree\n");  // in the order written
    out.clear();
    CHECK(run_command({"pwd"}, "/", out) == 0);
    CHECK(out == "/\n");
    out.clear();
    CHECK(run_command({"sh", "-c", "kill -9 $$"}, "", out) == 128 + 9);
    out.clear();
    CHECK(run_command({"vpsim-no-such-tool-xyz"}, "", out) == 127);
    CHECK(out.find("cannot run vpsim-no-such-tool-xyz") != std::string::npos);
    out.clear();
    CHECK(run_command({"pwd"}, "/no/such/dir-xyz", out) == 127);
    CHECK(out.find("/no/such/dir-xyz") != std::string::npos);
}

TEST_CASE("User RTL: run_command's timeout ends the tool and what it started (its process group)") {
    // The background process holds the output open for 60 s, then lets go of it and lives on: were
    // only the shell killed, run_command would return after 60 s with it alive (the check below
    // fails), however fast the machine. No bound on the time taken; the timeout is generous only
    // so that the shell has printed the pid first.
    std::string out;
    CHECK(run_command({"sh", "-c", "(sleep 60; exec sleep 1000 >/dev/null 2>&1) & echo $!; sleep 1000; echo late"}, "",
                      out, 2) == -1);
    CHECK(out.find("late") == std::string::npos);
    const size_t digits = out.find_first_not_of("0123456789");
    REQUIRE(digits != 0);
    REQUIRE(digits != std::string::npos);
    const pid_t background = pid_t(std::stol(out.substr(0, digits)));
    // SIGKILL reached it: gone, or a zombie not yet reaped by its new parent. The kill is asynchronous,
    // so it gets seconds to finish dying; not killed, it would live 1000 s.
    const auto alive = [&] {
        std::ifstream in("/proc/" + std::to_string(background) + "/stat");
        std::string stat((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        return !stat.empty() && stat.find(") Z ") == std::string::npos;
    };
    for (int i = 0; i < 1000 && alive(); ++i) std::this_thread::sleep_for(std::chrono::milliseconds(10));
    const bool survived = alive();
    if (survived) ::kill(background, SIGKILL);  // leave nothing behind
    CHECK_FALSE(survived);
}

#include "tb/junit.h"

TEST_CASE("JUnit report: a test case per case record, failures escaped, the coverage gate as one more case") {
    XcheckReport r;
    r.seconds = 1.5;
    r.cases.push_back({"xcheck.corpus", "a<b>.decl", 2, 0, 0.25, ""});
    r.cases.push_back({"xcheck.random", "random arrays 0-9 (seed 1)", 10, 3, 0.5, "event 2: \"x\" & y\nreplay: vpsim xcheck --only 4"});
    GateResult gate;
    gate.gated = true;
    gate.holes = {"rule D9"};
    gate.waived = {{"rule D12", "needs 142 constants"}};
    const std::string x = junit_xml(r, gate);
    CHECK(x.find("<testsuites name=\"vpsim xcheck\" tests=\"3\" failures=\"2\"") != std::string::npos);
    CHECK(x.find("name=\"a&lt;b&gt;.decl\" time=\"0.250000\"/>") != std::string::npos);
    CHECK(x.find("<failure message=\"3 of 10 arrays mismatch: event 2: &quot;x&quot; &amp; y\" type=\"mismatch\">") !=
          std::string::npos);
    CHECK(x.find("replay: vpsim xcheck --only 4</failure>") != std::string::npos);
    CHECK(x.find("<failure message=\"1 coverage holes\" type=\"coverage\">rule D9\n</failure>") != std::string::npos);
    CHECK(x.find("waived: rule D12 (needs 142 constants)") != std::string::npos);
    gate.gated = false;  // not gated: no coverage case, no coverage failure
    const std::string y = junit_xml(r, gate);
    CHECK(y.find("tests=\"2\" failures=\"1\"") != std::string::npos);
    CHECK(y.find("functional coverage") == std::string::npos);
    CHECK(xml_escape(std::string("a\x01\tb")) == "a?\tb");
}

TEST_CASE("JUnit report of a mutation campaign: a test case per mutant, killed passes, survivor fails with its replay") {
    using R = MutantOutcome::Result;
    const std::vector<Mutation> ms = {{"mutate -mode inv -cell $a", "inv", "d.sv:10", "$a.Y[0]"},
                                      {"mutate -mode const0 -cell $b", "const0", "d.sv:20", "$b.A[1]"},
                                      {"mutate -mode const1 -cell $c", "const1", "d.sv:30", "$c.B[2]"},
                                      {"mutate -mode cnot0 -cell $d", "cnot0", "d.sv:40", "$d.A[3]"},
                                      {"mutate -mode cnot1 -cell $e", "cnot1", "d.sv:50", "x<y>[4]"}};
    const R results[] = {R::Killed, R::Survived, R::Equivalent, R::TimedOut, R::NotBuilt};
    CampaignResult c;
    c.seconds = 12.5;
    for (size_t i = 0; i < ms.size(); ++i) {
        MutantOutcome o;
        o.index = i + 1;
        o.mutation = &ms[i];
        o.result = results[i];
        o.detail = results[i] == R::Killed ? "random #3: event 1 & \"2\"" : results[i] == R::NotBuilt ? "verilator failed" : "";
        o.replay = results[i] == R::Equivalent || results[i] == R::NotBuilt ? "" : fmt::format("vpsim xcheck --rtl m/mutant-{}.v", i + 1);
        o.seconds = 0.5 * double(i + 1);
        c.outcomes.push_back(o);
    }
    const std::string x = campaign_junit_xml("xcheck --unit decl_decoder: mutants of d.sv", c);
    CHECK(x.find("<testsuites name=\"vpsim xcheck --mutants\" tests=\"5\" failures=\"1\" errors=\"2\" skipped=\"1\" "
                 "time=\"12.500000\">") != std::string::npos);
    CHECK(x.find("<testsuite name=\"xcheck --unit decl_decoder: mutants of d.sv\" tests=\"5\" failures=\"1\" errors=\"2\" "
                 "skipped=\"1\"") != std::string::npos);
    CHECK(x.find("name=\"mutant 1: inv at d.sv:10 on $a.Y[0]\" time=\"0.500000\">\n      <system-out>killed: random #3: "
                 "event 1 &amp; &quot;2&quot;\nmutate -mode inv -cell $a\nreplay: vpsim xcheck --rtl m/mutant-1.v</system-out>") !=
          std::string::npos);
    CHECK(x.find("<failure message=\"survived: the cross-check found no mismatch; replay: vpsim xcheck --rtl m/mutant-2.v\" "
                 "type=\"survived\">") != std::string::npos);
    CHECK(x.find("name=\"mutant 3: const1 at d.sv:30 on $c.B[2]\" time=\"1.500000\">\n      <skipped message=\"equivalent: ") !=
          std::string::npos);
    CHECK(x.find("<error message=\"timed out: \" type=\"timed out\">") != std::string::npos);
    CHECK(x.find("<error message=\"not built: verilator failed\" type=\"not built\">mutate -mode cnot1 -cell $e</error>") !=
          std::string::npos);
    CHECK(x.find("on x&lt;y&gt;[4]") != std::string::npos);
}

// ---------------------------------------------------------------------------------------
// The verification workflow's generic parts (issue 25): replay commands, triage, the shrinker
// that keeps the bug, the coverage gate.

TEST_CASE("Replay commands quote what needs quoting and keep probabilities exact") {
    ReplayCommand r({"vpsim", "xcheck"});
    r.opt("--rtl", "my dir/dec.sv").opt("-G", "CONST_COUNT=192").opt("--out-ready", 0.2).opt("--in-valid", 0.9).opt("--seed",
                                                                                                                 18446744073709551615ull);
    CHECK(r.str() == "vpsim xcheck --rtl 'my dir/dec.sv' -G CONST_COUNT=192 --out-ready 0.2 --in-valid 0.9 --seed 18446744073709551615");
    CHECK(exact_number(0.1 + 0.2) == "0.30000000000000004");  // reads back to the same double
    CHECK(shell_quote("it's") == "'it'\\''s'");
}

TEST_CASE("A random array's replay command carries every option that shaped the run") {
    XcheckOptions o;
    o.seed = 7;
    o.bp.out_ready = 0.25;
    o.bp.in_valid = 0.5;
    o.replay_args = {"--rtl", "a.sv", "--top", "t", "-G", "MAX_LENGTH=2048"};
    const ArrayCase c = random_case(7, 46);
    CHECK(replay_command(c, o) ==
          "vpsim xcheck --rtl a.sv --top t -G MAX_LENGTH=2048 --no-corpus --seed 7 --only 46 --out-ready 0.25 --in-valid 0.5");
    ArrayCase f = c;
    f.origin = "x.decl";
    f.path = "dir/x.decl";
    CHECK(replay_command(f, o) == "vpsim xcheck --rtl a.sv --top t -G MAX_LENGTH=2048 --corpus dir/x.decl --random 0 --out-ready 0.25 --in-valid 0.5");
}

TEST_CASE("difference() names what differs: event kind and field, the rule, missing events, cycles") {
    SideResult a, b;
    decl::Event e;
    e.kind = decl::EventKind::Element;
    e.value = 8;
    a.events = {e, decl::Event{}};
    b.events = a.events;
    b.events[0].value = 12;
    CHECK(difference(a, b).signature == "event ELEMENT: value");
    b.events[0] = e;
    b.events[0].kind = decl::EventKind::Error;
    b.events[0].code = 9;
    CHECK(difference(a, b).signature == "event ELEMENT | ERROR D9: kind");
    b.events = {e};
    CHECK(difference(a, b).signature == "missing event STREAM in rtl");
    b.events = a.events;
    b.cycles = 3;
    const Difference d = difference(a, b);
    CHECK(d.signature == "cycles");
    CHECK(d.cycles_only);
    CHECK(d.text == "cycles: model 0 | rtl 3");
}

TEST_CASE("first_divergence() gives the first cycle where the pins differ") {
    std::vector<CycleSample> m(5), r(5);
    for (auto& c : m) c.in_ready = true;
    r = m;
    CHECK(first_divergence(m, r).empty());
    r[3].in_ready = false;
    r[3].out_valid = true;
    CHECK(first_divergence(m, r) == "first diverging cycle 3 (of model 5 | rtl 5): in_ready model 1 | rtl 0; out_valid model 0 | rtl 1");
    r = m;
    r.push_back(m.back());
    CHECK(first_divergence(m, r) == "the pins agree for 5 cycles; then the rtl goes on for 1 more");
}

TEST_CASE("The shrinker removes a CONST or EXT header with its payload, and keeps the same bug") {
    // The "bug": a SHORT4 element followed by another element (the planted bug's trigger). The
    // EXT's 13 payload words and the CONST's 4 look like tokens of every kind; removing a header
    // without its payload would make them parse as tokens.
    std::vector<uint32_t> t = {decl::D3DVSD_STREAM(0), decl::D3DVSD_EXT(13, 5)};
    for (int i = 0; i < 13; ++i) t.push_back(decl::D3DVSD_REG(uint32_t(i), decl::D3DVSDT_SHORT4));
    t.push_back(decl::D3DVSD_CONST(0, 1));
    for (int i = 0; i < 4; ++i) t.push_back(decl::D3DVSD_REG(1, decl::D3DVSDT_FLOAT1));
    t.insert(t.end(), {decl::D3DVSD_REG(2, decl::D3DVSDT_SHORT4), decl::D3DVSD_REG(3, decl::D3DVSDT_FLOAT2), decl::D3DVSD_END()});
    auto keeps = [](const std::vector<uint32_t>& a) {
        const auto units = token_units(a);
        for (size_t u = 0; u + 1 < units.size(); ++u)
            if (a[units[u].first] == decl::D3DVSD_REG(2, decl::D3DVSDT_SHORT4) &&
                decl::token_type(a[units[u + 1].first]) == decl::TokenType::StreamData)
                return true;
        return false;
    };
    REQUIRE(keeps(t));
    const auto units = token_units(t);
    REQUIRE(units.size() == 6);  // STREAM, EXT + 13, CONST + 4, REG, REG, END
    CHECK(units[1] == std::make_pair(size_t(1), size_t(15)));
    const auto s = shrink(t, keeps);
    CHECK(s == std::vector<uint32_t>{decl::D3DVSD_REG(2, decl::D3DVSDT_SHORT4), decl::D3DVSD_REG(3, decl::D3DVSDT_FLOAT2)});
    // A CONST or EXT header cut by the array's end stays one unit up to the end.
    CHECK(token_units({decl::D3DVSD_CONST(0, 2), 1, 2}) == std::vector<std::pair<size_t, size_t>>{{0, 3}});
    // Simpler variants: one vector fewer, one payload word fewer.
    const auto simpler = simpler_arrays({decl::D3DVSD_CONST(0, 2), 1, 2, 3, 4, 5, 6, 7, 8, decl::D3DVSD_EXT(1, 0), 9});
    REQUIRE(simpler.size() == 2);
    CHECK(simpler[0] == std::vector<uint32_t>{decl::D3DVSD_CONST(0, 1), 1, 2, 3, 4, decl::D3DVSD_EXT(1, 0), 9});
    CHECK(simpler[1] == std::vector<uint32_t>{decl::D3DVSD_CONST(0, 2), 1, 2, 3, 4, 5, 6, 7, 8, decl::D3DVSD_EXT(0, 0)});
}

TEST_CASE("The shrinker keeps the signature: a smaller array with another difference is not taken") {
    // Two "bugs": any type-6 token (signature A) and a trailing type-7 non-END (signature B).
    auto sig = [](const std::vector<uint32_t>& a) -> std::string {
        for (uint32_t w : a)
            if ((w >> 29) == 6) return "A";
        for (uint32_t w : a)
            if ((w >> 29) == 7 && w != decl::D3DVSD_END()) return "B";
        return "";
    };
    std::vector<uint32_t> t = {0xC0000000u, decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, 2), 0xE0000001u, decl::D3DVSD_END()};
    REQUIRE(sig(t) == "A");
    const auto any = shrink(t, [&](const std::vector<uint32_t>& a) { return !sig(a).empty(); });
    const auto same = shrink(t, [&](const std::vector<uint32_t>& a) { return sig(a) == "A"; });
    CHECK(any == std::vector<uint32_t>{0xE0000001u});  // "some difference": it traded bug A for bug B
    CHECK(same == std::vector<uint32_t>{0xC0000000u});
}

TEST_CASE("Triage groups mismatches by signature, largest group first, with the first of each") {
    Triage t;
    t.add("event ELEMENT: value", "array 1", "d1", "r1");
    t.add("cycles", "array 2", "d2", "r2");
    t.add("cycles", "array 3", "d3", "r3");
    const auto g = t.groups();
    REQUIRE(g.size() == 2);
    CHECK(g[0].signature == "cycles");
    CHECK(g[0].count == 2);
    CHECK(g[0].first_where == "array 2");
    CHECK(g[1].first_replay == "r1");
    CHECK(t.total() == 3);
}

TEST_CASE("Code coverage gate: waivers cover only the holes they name, by the source's base name, and the gate counts hit or waived points") {
    CoverageSummary cs;
    auto point = [&](const std::string& kind, int line, const std::string& comment, uint64_t count) {
        CoveragePoint p;
        p.kind = kind;
        p.file = "/some/dir/unit.sv";
        p.line = line;
        p.comment = comment;
        p.hier = "dut";
        p.count = count;
        cs.points.push_back(p);
    };
    for (int i = 0; i < 6; ++i) point("line", 10 + i, "block", 1);
    point("toggle", 20, "addr[0]", 0);
    point("toggle", 20, "addr[1]", 0);
    point("toggle", 21, "cnt[5]", 0);
    point("branch", 30, "if", 0);
    const std::vector<Waiver> w = {parse_waiver("unit.sv:20: toggle addr[* because aligned", "f:1"),
                                   parse_waiver("unit.sv:*: toggle cnt[5] because at most 20", "f:2"),
                                   parse_waiver("unit.sv:10: line block because hit anyway", "f:3")};
    CHECK(point_name(cs.points[6]) == "unit.sv:20: toggle addr[0]");
    const CodeGate g = apply_code_gate(cs, w, 80);
    CHECK(g.points == 10);
    CHECK(g.hit == 6);
    REQUIRE(g.waived.size() == 3);
    CHECK(g.waived[0].second == "aligned");
    CHECK(g.waived[2].second == "at most 20");
    REQUIRE(g.holes.size() == 1);  // the branch: no waiver names it
    CHECK(g.holes[0].kind == "branch");
    REQUIRE(g.unused.size() == 1);  // a waiver of a point that was hit covers nothing
    CHECK(g.unused[0].where == "f:3");
    CHECK(g.percent() == Approx(90.0));
    CHECK_FALSE(g.fails());
    CHECK(apply_code_gate(cs, w, 90.0).fails() == false);
    CHECK(apply_code_gate(cs, w, 90.5).fails());
    CHECK(apply_code_gate(cs, {}, 61).fails());
    CHECK_FALSE(apply_code_gate(cs, {}, -1).fails());  // no gate
}

TEST_CASE("Coverage gate: MAX_LENGTH 4 or less excludes the CONST event and the user's CONST bins with their crosses, 5 does not") {
    const std::string f = (std::filesystem::temp_directory_path() / fmt::format("vpsim_test_maxlen_{}.txt", ::getpid())).string();
    std::ofstream(f) << "bin c event CONST\nbin e event END\ncross ce c e\nbin s event STREAM\n";
    const UserCoverageSpec spec = load_user_bins(f);
    std::filesystem::remove(f);
    decl::DecoderOptions m;
    m.max_length = 5;  // CONST(a, 1) and its 4 words: indices 0..4
    CHECK(unreachable_bins(m, &spec).empty());
    for (uint32_t len : {4u, 1u}) {
        m.max_length = len;
        const auto ex = unreachable_bins(m, &spec);
        REQUIRE(ex.size() == 3);
        CHECK(ex[0].pattern == "event CONST (*)");
        CHECK(bin_matches(ex[0].pattern, "event CONST (rtl)"));
        CHECK(ex[0].reason.find(fmt::format("MAX_LENGTH={}", len)) == 0);
        CHECK(ex[1].pattern == "user bin c");
        CHECK(ex[2].pattern == "user cross ce");
        CHECK(ex[2].reason.find("its bin c: MAX_LENGTH") == 0);
    }
}

TEST_CASE("Coverage gate: unreachable bins excluded, waivers with reasons, unused waivers, malformed lines") {
    decl::DecoderOptions m;
    CHECK(unreachable_bins(m).empty());  // CONST_COUNT 96: rule 12 reachable
    m.const_count = 141;
    CHECK(unreachable_bins(m).empty());  // CONST(127, 15) ends at 142 > 141
    m.const_count = 142;
    REQUIRE(unreachable_bins(m).size() == 2);
    m.const_count = 192;
    const auto ex = unreachable_bins(m);
    REQUIRE(ex.size() == 2);
    CHECK(bin_matches(ex[0].pattern, "strict rule D12 (rtl)"));
    CHECK(bin_matches(ex[1].pattern, "lenient rule D12 (model)"));
    CHECK_FALSE(bin_matches(ex[0].pattern, "strict rule D1 (rtl)"));
    const std::vector<Waiver> w = {parse_waiver("waive token SKIP because directed", "t:1"),
                                   parse_waiver("event * (rtl) because x", "t:2"), parse_waiver("nothing because y", "t:3")};
    const GateResult g = apply_gate({"strict rule D12 (rtl)", "token SKIP", "event END (rtl)", "token EXT"}, ex, w, true);
    CHECK(g.excluded.size() == 1);
    CHECK(g.waived == std::vector<std::pair<std::string, std::string>>{{"token SKIP", "directed"}, {"event END (rtl)", "x"}});
    CHECK(g.holes == std::vector<std::string>{"token EXT"});
    REQUIRE(g.unused.size() == 1);
    CHECK(g.unused[0].where == "t:3");
    CHECK(g.fails());
    CHECK_FALSE(apply_gate({"token EXT"}, {}, {}, false).fails());
    CHECK_THROWS_WITH(parse_waiver("waive token SKIP", "f:4"), Catch::Contains("f:4: expected `waive BIN because REASON`"));
}

TEST_CASE("User-defined bins and crosses: tokens, events, modes, crosses, holes and malformed lines") {
    const TempFile tmp("vpsim_test_bins");
    const std::string& f = tmp.path();
    {
        std::ofstream o(f);
        o << "# tokens and events\n"
             "bin short4 token 0xE00F0000 0x40070000\n"
             "bin skip15 event SKIP code=15 lenient\n"
             "bin end event END\n"
             "bin never token 0xFFFFFFFF 0x12345678\n"
             "cross short4_end short4 end\n";
    }
    const UserCoverageSpec spec = load_user_bins(f);
    REQUIRE(spec.bins.size() == 4);
    REQUIRE(spec.crosses.size() == 1);
    const std::vector<uint32_t> t = {decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, decl::D3DVSDT_SHORT4), decl::D3DVSD_SKIP(15),
                                     decl::D3DVSD_CONST(0, 1), decl::D3DVSD_REG(1, decl::D3DVSDT_SHORT4), 0, 0, 0,
                                     decl::D3DVSD_END()};
    UserCoverage u;
    u.count(spec, t, decl::decode(t).events, false);  // strict: the lenient-only bin is not counted
    CHECK(u.bins == std::vector<uint64_t>{1, 0, 1, 0});  // the REG in the CONST payload is no token
    CHECK(u.crosses == std::vector<uint64_t>{1});
    u.count(spec, t, decl::decode(t, {true}).events, true);
    CHECK(u.bins == std::vector<uint64_t>{2, 1, 2, 0});
    CHECK(u.holes(spec) == std::vector<std::string>{"user bin never"});
    auto bad = [&](const std::string& text) {
        std::ofstream(f) << text;
        try {
            load_user_bins(f);
        } catch (const std::exception& e) {
            return std::string(e.what());
        }
        return std::string("no error");
    };
    CHECK_THAT(bad("bin a token 0xF 0x10\n"), Catch::Contains(":1: bin a: VALUE has bits outside MASK"));
    CHECK_THAT(bad("bin a event NOPE\n"), Catch::Contains(":1: bin a: unknown event kind NOPE"));
    CHECK_THAT(bad("bin a event END\ncross c a b\n"), Catch::Contains(":2: cross c: no bin b defined before it"));
    CHECK_THAT(bad("binx a\n"), Catch::Contains(":1: a line starts with `bin`, `cross` or `seq`"));
    CHECK_THAT(bad("bin a event ELEMENT colour=3\n"), Catch::Contains("unknown field colour"));
}

// The coverage language beyond exact values (issue 34, item 5): ranges, sequences, crosses within a
// window of events. Each writes a bins file and counts hand-made arrays against the model's events.
namespace {
UserCoverageSpec bins_from(const std::string& text) {
    const TempFile f("vpsim_test_bins_lang");
    std::ofstream(f.path()) << text;
    return load_user_bins(f.path());
}
std::string bins_error(const std::string& text) {
    try {
        bins_from(text);
    } catch (const std::exception& e) {
        return e.what();
    }
    return "no error";
}
UserCoverage count_one(const UserCoverageSpec& spec, const std::vector<uint32_t>& t, bool lenient = false) {
    UserCoverage u;
    u.count(spec, t, decl::decode(t, {lenient}).events, lenient);
    return u;
}
}  // namespace

TEST_CASE("User bins: a range on an event field or a token value counts the values inside it, bounds included") {
    const auto spec = bins_from("bin r0_3 event ELEMENT reg=0..3\nbin r4 event ELEMENT reg=4..15\n"
                                "bin s1_2 event STREAM stream=1..2\nbin regtok token 0xE000001F 0x40000002..0x40000004\n");
    const std::vector<uint32_t> t = {decl::D3DVSD_STREAM(2), decl::D3DVSD_REG(0, decl::D3DVSDT_FLOAT3),
                                     decl::D3DVSD_REG(3, decl::D3DVSDT_FLOAT3), decl::D3DVSD_REG(4, decl::D3DVSDT_FLOAT3),
                                     decl::D3DVSD_STREAM(3), decl::D3DVSD_REG(5, decl::D3DVSDT_FLOAT3), decl::D3DVSD_END()};
    const UserCoverage u = count_one(spec, t);
    // regs 0 and 3 in 0..3, 4 and 5 in 4..15; stream 2 in 1..2, stream 3 not; REG tokens 3 and 4 in 2..4
    CHECK(u.bins == std::vector<uint64_t>{2, 2, 1, 2});
}

TEST_CASE("User bins: a seq counts adjacent events in order, and same=FIELD only those with the field equal") {
    const auto spec = bins_from("bin s event STREAM\nbin e event ELEMENT\nseq s_s s s\nseq s_s_same s s same=stream\n"
                                "seq s_e s e\n");
    using namespace decl;
    // STREAM 0, STREAM 0 (the trigger), STREAM 1, ELEMENT: s_s twice, s_s_same once, s_e once (lenient:
    // the strict decoder stops at the second STREAM, rule D9)
    const std::vector<uint32_t> t = {D3DVSD_STREAM(0), D3DVSD_STREAM(0), D3DVSD_STREAM(1), D3DVSD_REG(0, D3DVSDT_FLOAT3),
                                     D3DVSD_END()};
    CHECK(count_one(spec, t, true).seqs == std::vector<uint64_t>{2, 1, 1});
    // an ELEMENT between the two STREAM 0: not adjacent, no sequence of streams
    const std::vector<uint32_t> apart = {D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_STREAM(0),
                                         D3DVSD_REG(1, D3DVSDT_FLOAT3), D3DVSD_END()};
    CHECK(count_one(spec, apart, true).seqs == std::vector<uint64_t>{0, 0, 2});
}

TEST_CASE("User bins: a seq of a lenient-only bin counts in lenient arrays only") {
    const auto spec = bins_from("bin s event STREAM lenient\nseq s_s s s same=stream\n");
    using namespace decl;
    // the same event list counted as a strict array and as a lenient one
    const std::vector<uint32_t> t = {D3DVSD_STREAM(0), D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()};
    const auto events = decode(t, {true}).events;
    UserCoverage strict, lenient;
    strict.count(spec, t, events, false);
    lenient.count(spec, t, events, true);
    CHECK(strict.seqs == std::vector<uint64_t>{0});
    CHECK(lenient.seqs == std::vector<uint64_t>{1});
}

TEST_CASE("User bins: a token seq counts adjacent token positions, a CONST's payload skipped") {
    const auto spec = bins_from("bin c token 0xE0000000 0x80000000\nbin r token 0xE0000000 0x40000000\nseq c_r c r\n");
    using namespace decl;
    // CONST with one vector (4 payload dwords, one of which looks like a REG token), then a REG
    const std::vector<uint32_t> t = {D3DVSD_STREAM(0), D3DVSD_CONST(0, 1), D3DVSD_REG(0, D3DVSDT_FLOAT3), 0, 0, 0,
                                     D3DVSD_REG(1, D3DVSDT_FLOAT3), D3DVSD_END()};
    CHECK(count_one(spec, t).seqs == std::vector<uint64_t>{1});
    const std::vector<uint32_t> r_first = {D3DVSD_STREAM(0), D3DVSD_REG(1, D3DVSDT_FLOAT3), D3DVSD_CONST(0, 1), 0, 0, 0,
                                           0, D3DVSD_END()};
    CHECK(count_one(spec, r_first).seqs == std::vector<uint64_t>{0});
}

TEST_CASE("User bins: a cross within N events needs every bin inside N consecutive events, a plain cross the array") {
    const auto spec = bins_from("bin s1 event STREAM stream=1\nbin r7 event ELEMENT reg=7\n"
                                "cross plain s1 r7\ncross w2 s1 r7 within 2\ncross w3 s1 r7 within 3\n");
    using namespace decl;
    // events: STREAM 0, ELEMENT 7, ELEMENT 0, STREAM 1, END: ELEMENT 7 and STREAM 1 are 3 events apart
    // (positions 1 and 3), inside a window of 3, not of 2
    const std::vector<uint32_t> t = {D3DVSD_STREAM(0), D3DVSD_REG(7, D3DVSDT_FLOAT3), D3DVSD_REG(0, D3DVSDT_FLOAT3),
                                     D3DVSD_STREAM(1), D3DVSD_REG(1, D3DVSDT_FLOAT3), D3DVSD_END()};
    CHECK(count_one(spec, t).crosses == std::vector<uint64_t>{1, 0, 1});
    CHECK(count_one(spec, t).holes(spec) == std::vector<std::string>{"user cross w2"});
}

TEST_CASE("User bins: a never-hit seq is a hole named `user seq NAME`") {
    const auto spec = bins_from("bin end event END\nseq end_end end end\n");
    using namespace decl;
    const UserCoverage u = count_one(spec, {D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()});
    CHECK(u.bins == std::vector<uint64_t>{1});
    CHECK(u.holes(spec) == std::vector<std::string>{"user seq end_end"});
}

TEST_CASE("User bins: malformed ranges, seqs and windows are errors naming the line and the rule") {
    CHECK_THAT(bins_error("bin a event ELEMENT reg=7..3\n"), Catch::Contains(":1: bin a: reg=7..3: not a number or a range"));
    CHECK_THAT(bins_error("bin a token 0xF 0x1..0x10\n"), Catch::Contains(":1: bin a: VALUE has bits outside MASK"));
    CHECK_THAT(bins_error("bin a event END\nseq q a\n"), Catch::Contains(":2: seq q: a sequence needs two bins or more"));
    CHECK_THAT(bins_error("bin a event END\nbin t token 0 0\nseq q a t\n"),
               Catch::Contains(":3: seq q: bins a and t are one a token and one an event bin"));
    CHECK_THAT(bins_error("bin t token 0 0\nseq q t t same=reg\n"), Catch::Contains(":2: seq q: `same=` needs event bins"));
    CHECK_THAT(bins_error("bin a event END\nseq q a a same=colour\n"), Catch::Contains(":2: seq q: same=colour: unknown field"));
    CHECK_THAT(bins_error("bin a event END\nseq q a b\n"), Catch::Contains(":2: seq q: no bin b defined before it"));
    CHECK_THAT(bins_error("bin a event END\nbin b event END\ncross c a b within 0\n"),
               Catch::Contains(":3: cross c: expected `within N` at the end"));
    CHECK_THAT(bins_error("bin a event END\nbin t token 0 0\ncross c a t within 4\n"),
               Catch::Contains(":3: cross c: `within` needs event bins, t is a token bin"));
    CHECK_THAT(bins_error("bin a event END\nseq a a a\n"), Catch::Contains(":2: bin a is defined twice"));
}

// ---------------------------------------------------------------------------------------
#include "tb/xcheck_stream.h"

#include <unistd.h>

TEST_CASE("Streams: a stream of one array drives exactly as drive_array (the same events and cycles)") {
    // The stream's cycles end, as drive_array's, when every token is in and the final event is out;
    // the array's own cycles, when its final event left (tokens after an error may still follow).
    const uint64_t seed = test_seed("stream of one array");
    INFO("seed " << seed);
    for (uint64_t i = 0; i < 300; ++i) {
        const ArrayCase c = random_case(seed, i);
        const SideResult one = run_model(c.tokens, c.lenient, c.bp_seed, {});
        const StreamResult s = run_model_stream({{c.tokens, c.lenient, 0}}, c.bp_seed, {}, {});
        REQUIRE(s.arrays.size() == 1);
        REQUIRE(s.arrays[0].events == one.events);
        REQUIRE(s.cycles == one.cycles);
        REQUIRE(s.arrays[0].cycles <= one.cycles);
    }
}

TEST_CASE("Streams: the built-in RTL matches the golden model on arrays back to back, and a stream replays alone") {
    const uint64_t seed = test_seed("streams back to back");
    INFO("seed " << seed);
    auto dut = builtin_rtl();
    size_t zero_gaps = 0;
    for (uint64_t k = 0; k < 200; ++k) {
        const StreamCase c = random_stream(seed, k, 6);
        for (size_t j = 1; j < c.arrays.size(); ++j) zero_gaps += c.arrays[j].gap == 0;
        dut->reset();
        StreamResult act;
        dut->run_stream_into(c.arrays, c.bp_seed, {}, act);
        const StreamResult exp = run_model_stream(c.arrays, c.bp_seed, {}, {});
        REQUIRE(stream_difference(exp, act).text == "");
        const StreamCase again = random_stream(seed, k, 6);
        REQUIRE(again.bp_seed == c.bp_seed);
        REQUIRE(again.arrays.size() == c.arrays.size());
        for (size_t j = 0; j < c.arrays.size(); ++j) REQUIRE(again.arrays[j].tokens == c.arrays[j].tokens);
    }
    CHECK(zero_gaps > 300);  // about half of the 1000 boundaries are back to back
}

TEST_CASE("Streams: the shrinker never leaves an empty array and keeps the property") {
    std::vector<StreamArray> s;
    for (int j = 0; j < 6; ++j) s.push_back({{0x20000000u | uint32_t(j), 0x40000002u, 0xFFFFFFFFu}, j % 2 == 1, uint32_t(j)});
    s[3].tokens.push_back(0x12345678u);  // the "bug": an array holding this word after another array
    auto keeps = [](const std::vector<StreamArray>& c) {
        for (const auto& a : c) REQUIRE(!a.tokens.empty());
        for (size_t j = 1; j < c.size(); ++j)
            for (uint32_t t : c[j].tokens)
                if (t == 0x12345678u) return true;
        return false;
    };
    const auto r = shrink_stream(s, keeps);
    REQUIRE(r.size() == 2);
    REQUIRE(r[1].tokens == std::vector<uint32_t>{0x12345678u});
    REQUIRE(r[0].tokens.size() == 1);
    REQUIRE(r[1].gap == 0);
}

TEST_CASE("Streams: a stream file reads back what stream_text wrote, and a bad line names the file and line") {
    const auto dir = std::filesystem::temp_directory_path() / fmt::format("vpsim_stream_{}", ::getpid());
    std::filesystem::create_directories(dir);
    const std::vector<StreamArray> s = {{{0x20000001u, 0xFFFFFFFFu}, false, 0}, {{0x40000002u}, true, 5}};
    {
        std::ofstream(dir / "a.stream") << "// a comment\n" << stream_text(s, 0xABCDu);
    }
    const StreamCase c = load_stream_file((dir / "a.stream").string());
    REQUIRE(c.bp_seed == 0xABCDu);
    REQUIRE(c.arrays.size() == 2);
    CHECK(c.arrays[0].tokens == s[0].tokens);
    CHECK(c.arrays[1].tokens == s[1].tokens);
    CHECK(c.arrays[1].lenient);
    CHECK(c.arrays[1].gap == 5);
    {
        std::ofstream(dir / "b.stream") << "// bp-seed: 1\n// stream-array strict gap 0\n0x1\nnot_a_token\n";
    }
    try {
        load_stream_file((dir / "b.stream").string());
        FAIL("no error");
    } catch (const std::exception& e) {
        CHECK_THAT(e.what(), Catch::Contains("b.stream:4"));
    }
    std::filesystem::remove_all(dir);
}

// The cross-check engine, one for every RTL unit (issue 34 item 1). A unit gives an adapter: its
// stimulus, its golden side against its pins, its counts and coverage bins, and what a kept
// mismatch becomes (shrunk, written as a replay file, a waveform). The engine does the rest, the
// same way for every unit: the named cases on the calling thread, the random cases in chunks on
// --jobs threads (tb/chunk_scheduler.h) merged in case order, every mismatch counted and triaged
// by signature, the first few kept, --first-mismatch, the JUnit test cases (tb/case_record.h) and
// the progress line. The declaration decoder (tb/xcheck.cpp) and the vertex fetch
// (tb/vf_xcheck.cpp) both run through it; docs/xcheck.md, "One engine, one adapter per unit".
//
// An adapter A provides:
//
//   using Case;     // one stimulus: a token array, a draw, a stream (copyable)
//   using Checker;  // one thread's design instance, golden side and buffers
//   using Counts;   // totals and coverage bins of some cases: default-constructible, add(const Counts&)
//   using Sides;    // what a kept mismatch carries beyond its verdict (both sides' outputs, say)
//   std::unique_ptr<Checker> checker(int thread);  // made on the thread that uses it (0 .. jobs-1)
//   void chunk_start(Checker&);                    // each chunk starts from a reset design
//   void stimulus(Checker&, uint64_t i, Case&);    // random case i into a reused Case (replayable alone)
//   Verdict check(Checker&, const Case&, Counts&, Sides* sides);  // golden side against the pins,
//                                                  // counted; `sides` (may be null) filled on a mismatch
//   std::string where(const Case&);                // "random array 7 of --seed 1 (strict mode)"
//   std::string replay(const Case&);               // the command that checks this case alone
//   void also_mismatch(const Case&, const std::string& replay);  // more triage of every mismatch (may do nothing)
//   void keep(Kept<A>&&, bool shrink);             // one of the first `keep` mismatches, in case order;
//                                                  // shrink false under --first-mismatch
//   RecordKey record_of_random(uint64_t first);    // the JUnit test case random case `first` belongs to
//
// Every adapter call is made on the calling thread except checker, chunk_start, stimulus, check,
// where and replay, which the worker threads make (on their own checker; the adapter must not
// change shared state there).
#pragma once

#include "tb/case_record.h"
#include "tb/chunk_scheduler.h"
#include "tb/triage.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::tb {

// What a check found: "" when the sides agree, else the first difference and its signature (what
// differs without the values: tb/triage.h).
struct Verdict {
    std::string text, signature;
    bool empty() const { return text.empty(); }
};

// A kept mismatch, handed to the adapter.
template <class A>
struct Kept {
    typename A::Case c;
    Verdict verdict;
    typename A::Sides sides;
    std::string replay;
};

// A JUnit test case: the key that groups cases into it and the record made when it is first seen.
struct RecordKey {
    std::string key;
    CaseRecord proto;
};

struct EngineOptions {
    uint64_t random = 0;      // random cases (a unit's streams count as cases), numbered from 0
    uint64_t per_chunk = 1000;
    int jobs = 1;
    bool first_mismatch = false;  // stop at the first mismatch (unshrunk)
    size_t keep = 5;              // mismatches kept (shrunk by the adapter); all are counted and grouped
    bool records = false;         // JUnit test cases
    // Progress on stderr while the random cases run: 0 none; 1 a terminal line rewritten every
    // 2 s; 2 a line every progress_seconds (logs, CI).
    int progress = 0;
    double progress_seconds = 30;
    std::string noun = "cases";   // what the progress line counts
};

template <class A>
class Engine {
public:
    using Case = typename A::Case;
    using Counts = typename A::Counts;

    Engine(A& unit, const EngineOptions& o) : unit_(unit), o_(o), t0_(std::chrono::steady_clock::now()), last_print_(t0_) {}

    // One case on `k` (the calling thread's checker), in the JUnit test case `rec` (none: no record).
    void check_named(typename A::Checker& k, const Case& c, const std::optional<RecordKey>& rec) {
        if (stopped_) return;
        const auto t1 = std::chrono::steady_clock::now();
        Counts n;
        typename A::Sides s{};
        const Verdict v = unit_.check(k, c, n, &s);
        account(c, v, n, std::move(s), rec, std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count());
    }
    // A case whose sides were run elsewhere (the decoder's SystemC bench runs every array in one
    // simulation): its verdict and counts, accounted as check_named's.
    void account(const Case& c, const Verdict& v, const Counts& n, typename A::Sides&& s, const std::optional<RecordKey>& rec,
                 double seconds = 0) {
        if (stopped_) return;
        counts_.add(n);
        ++cases_;
        CaseRecord* cr = record(rec);
        if (cr) cr->seconds += seconds, ++cr->arrays;
        if (v.empty()) return;
        Seen m{0, v, unit_.where(c), unit_.replay(c), c, std::move(s), true};
        mismatch(m, cr);
    }

    // The random cases [0, o.random) in chunks on o.jobs threads, merged in order.
    void check_random() {
        if (stopped_ || o_.random == 0) return;
        const uint64_t chunks = (o_.random + o_.per_chunk - 1) / o_.per_chunk;
        struct Thread {
            std::unique_ptr<typename A::Checker> k;
            Case c;
        };
        ChunkWork<Thread, Chunk> w;
        w.make = [&](int t) {
            auto th = std::make_unique<Thread>();
            th->k = unit_.checker(t);
            return th;
        };
        w.check = [&](Thread& th, uint64_t k, Chunk& r) { check_chunk(th, k, r); };
        w.merge = [&](Chunk& r, uint64_t k) {
            merge(r);
            progress(std::min(o_.random, (k + 1) * o_.per_chunk));
            return !stopped_;
        };
        if (finish_) w.finish = [&](Thread& th, int t) { finish_(*th.k, t); };
        run_chunks(chunks, o_.jobs, w);
        if (o_.progress == 1) std::fprintf(stderr, "\r%78s\r", "");
    }
    // Optional: a thread's checker after its last random chunk, on that thread.
    void on_thread_finish(std::function<void(typename A::Checker&, int)> f) { finish_ = std::move(f); }

    uint64_t cases() const { return cases_; }
    uint64_t mismatches() const { return mismatches_; }
    bool stopped() const { return stopped_; }
    Counts& counts() { return counts_; }
    Triage& triage() { return triage_; }
    std::vector<CaseRecord>& records() { return records_; }
    double seconds() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count(); }

private:
    struct Seen {
        uint64_t index = 0;
        Verdict verdict;
        std::string where, replay;
        Case c;
        typename A::Sides sides{};
        bool full = false;  // sides filled: may be kept
    };
    struct Chunk {
        uint64_t first = 0, checked = 0;
        double seconds = 0;
        Counts counts;
        std::vector<Seen> seen;
    };

    template <class Thread>
    void check_chunk(Thread& th, uint64_t k, Chunk& r) {
        const auto t1 = std::chrono::steady_clock::now();
        r.first = k * o_.per_chunk;
        const uint64_t end = std::min(o_.random, r.first + o_.per_chunk);
        unit_.chunk_start(*th.k);
        typename A::Sides s{};
        for (uint64_t i = r.first; i < end; ++i) {
            unit_.stimulus(*th.k, i, th.c);
            const bool want = r.seen.size() < o_.keep;  // the first `keep` of a chunk may be the run's first
            Verdict v = unit_.check(*th.k, th.c, r.counts, want ? &s : nullptr);
            ++r.checked;
            if (v.empty()) continue;
            Seen m;
            m.index = i;
            m.verdict = std::move(v);
            m.where = unit_.where(th.c);
            m.replay = unit_.replay(th.c);
            m.c = th.c;
            if (want) m.sides = std::move(s), m.full = true, s = typename A::Sides{};
            r.seen.push_back(std::move(m));
            if (o_.first_mismatch) break;
        }
        r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    }

    void merge(Chunk& r) {
        counts_.add(r.counts);
        cases_ += r.checked;
        CaseRecord* cr = nullptr;
        if (o_.records && r.checked) {
            cr = record(unit_.record_of_random(r.first));
            cr->seconds += r.seconds;
            cr->arrays += r.checked;
        }
        for (auto& m : r.seen) {
            if (stopped_) break;
            mismatch(m, cr);
        }
    }

    void mismatch(Seen& m, CaseRecord* cr) {
        ++mismatches_;
        triage_.add(m.verdict.signature, m.where, m.verdict.text, m.replay);
        if (!o_.first_mismatch) unit_.also_mismatch(m.c, m.replay);
        if (cr && cr->mismatches++ == 0) cr->failure = fmt::format("{}: {}\nreplay: {}", m.where, m.verdict.text, m.replay);
        if (m.full && kept_ < o_.keep) {
            ++kept_;
            unit_.keep(Kept<A>{std::move(m.c), std::move(m.verdict), std::move(m.sides), std::move(m.replay)}, !o_.first_mismatch);
        }
        if (o_.first_mismatch) stopped_ = true;
    }

    CaseRecord* record(const std::optional<RecordKey>& rec) {
        if (!o_.records || !rec) return nullptr;
        auto it = index_.find(rec->key);
        if (it == index_.end()) {
            it = index_.emplace(rec->key, records_.size()).first;
            records_.push_back(rec->proto);
        }
        return &records_[it->second];
    }

    void progress(uint64_t done) {
        if (!o_.progress) return;
        const auto now = std::chrono::steady_clock::now();
        const double every = o_.progress == 1 ? 2.0 : o_.progress_seconds;
        if (std::chrono::duration<double>(now - last_print_).count() < every) return;
        last_print_ = now;
        const double sec = std::chrono::duration<double>(now - t0_).count();
        std::fprintf(stderr, "%sxcheck: %llu / %llu %s, %llu mismatches, %.0f %s/s%s", o_.progress == 1 ? "\r" : "",
                     (unsigned long long)done, (unsigned long long)o_.random, o_.noun.c_str(), (unsigned long long)mismatches_,
                     sec > 0 ? double(done) / sec : 0.0, o_.noun.c_str(), o_.progress == 1 ? "" : "\n");
        std::fflush(stderr);
    }

    A& unit_;
    EngineOptions o_;
    std::chrono::steady_clock::time_point t0_, last_print_;
    Counts counts_;
    uint64_t cases_ = 0, mismatches_ = 0;
    size_t kept_ = 0;
    bool stopped_ = false;
    Triage triage_;
    std::vector<CaseRecord> records_;
    std::map<std::string, size_t> index_;
    std::function<void(typename A::Checker&, int)> finish_;
};

}  // namespace vpsim::tb

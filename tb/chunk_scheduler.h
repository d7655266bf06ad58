// The cross-check's scheduler, one for every unit (issue 34 item 1): a run's random cases are cut
// into chunks, the chunks are checked on --jobs threads, each thread with its own checker (its own
// instance of the design, made and used on that thread only), and the results are merged on the
// calling thread strictly in chunk order, as a serial loop would merge them. So the report is the
// same for any --jobs. A unit gives its part as a ChunkWork; the decoder (tb/xcheck.cpp) and the
// vertex fetch (tb/vf_xcheck.cpp) both run through run_chunks.
#pragma once

#include <condition_variable>
#include <cstdint>
#include <exception>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>

namespace vpsim::tb {

// A unit's side of the scheduling.
template <class Checker, class Result>
struct ChunkWork {
    // A thread's checker, made on the thread that uses it (thread 0 .. jobs-1).
    std::function<std::unique_ptr<Checker>(int thread)> make;
    // Chunk k on a thread's checker; each chunk starts from a reset design.
    std::function<void(Checker&, uint64_t chunk, Result&)> check;
    // On the calling thread, in chunk order; false stops the run (a first mismatch, say): the
    // chunks after it are not merged, whatever the threads have checked ahead.
    std::function<bool(Result&, uint64_t chunk)> merge;
    // Optional: a thread's checker after its last chunk, on that thread (its coverage part, say).
    std::function<void(Checker&, int thread)> finish;
};

// Checks chunks [0, chunks). With jobs == 1 the calling thread checks and merges each chunk in
// turn, and an exception passes through as it was. With more, `jobs` threads take the chunks in
// order and run at most 4 × jobs chunks ahead of the merge (the results waiting are bounded); an
// exception on a thread stops the run and is thrown again on the calling thread as
// "--jobs thread N: WHAT".
template <class Checker, class Result>
void run_chunks(uint64_t chunks, int jobs, const ChunkWork<Checker, Result>& w) {
    if (jobs <= 1) {
        std::unique_ptr<Checker> k = w.make(0);
        for (uint64_t c = 0; c < chunks; ++c) {
            Result r;
            w.check(*k, c, r);
            if (!w.merge(r, c)) break;
        }
        if (w.finish) w.finish(*k, 0);
        return;
    }
    std::mutex mu;
    std::condition_variable cv_ready, cv_space;
    std::map<uint64_t, Result> ready;
    uint64_t next = 0, merged = 0;
    bool abort = false;
    std::string error;
    const uint64_t window = 4 * uint64_t(jobs);
    auto worker = [&](int t) {
        try {
            std::unique_ptr<Checker> k = w.make(t);
            for (;;) {
                uint64_t c;
                {
                    std::unique_lock<std::mutex> lock(mu);
                    cv_space.wait(lock, [&] { return abort || next >= chunks || next < merged + window; });
                    if (abort || next >= chunks) break;
                    c = next++;
                }
                Result r;
                w.check(*k, c, r);
                std::lock_guard<std::mutex> lock(mu);
                ready.emplace(c, std::move(r));
                cv_ready.notify_one();
            }
            if (w.finish) w.finish(*k, t);
        } catch (const std::exception& e) {
            std::lock_guard<std::mutex> lock(mu);
            if (error.empty()) error = fmt::format("--jobs thread {}: {}", t + 1, e.what());
            abort = true;
            cv_ready.notify_all();
            cv_space.notify_all();
        }
    };
    std::vector<std::thread> threads;
    for (int t = 0; t < jobs; ++t) threads.emplace_back(worker, t);
    for (uint64_t c = 0; c < chunks; ++c) {
        Result r;
        {
            std::unique_lock<std::mutex> lock(mu);
            cv_ready.wait(lock, [&] { return abort || ready.count(c); });
            if (!ready.count(c)) break;  // a thread failed
            r = std::move(ready[c]);
            ready.erase(c);
            merged = c + 1;
        }
        cv_space.notify_all();
        if (!w.merge(r, c)) break;
    }
    {
        std::lock_guard<std::mutex> lock(mu);
        abort = true;  // stopped, or done
    }
    cv_space.notify_all();
    for (auto& t : threads) t.join();
    if (!error.empty()) throw std::runtime_error(error);
}

}  // namespace vpsim::tb

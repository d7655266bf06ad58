// vpsim import behind a wall: walled_import.h; docs/import.md describes the design.
#include "model/import/walled_import.h"

#include "model/common/process.h"

#include <fmt/format.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <new>
#include <stdexcept>
#include <thread>

#include <sys/resource.h>
#include <unistd.h>

#if defined(__SANITIZE_ADDRESS__)
#define VPSIM_IMPORT_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define VPSIM_IMPORT_ASAN 1
#endif
#endif

// Sanitizer run-times call this on a finding; a libFuzzer harness's callback would save the
// child's input as its own finding (weak: absent outside sanitizer builds).
extern "C" void __sanitizer_set_death_callback(void (*)(void)) __attribute__((weak));

namespace vpsim::import {

namespace {

namespace fs = std::filesystem;

// The child's exit statuses.
constexpr int kExitDone = 0, kExitImportError = 2, kExitInternal = 3, kExitMemory = 90;

// The child's records on the pipe: a kind byte, a 64-bit little-endian length, the bytes.
// 'E' an error message, 'R' the report (JSON), 'P' a file's path followed by its 'B' bytes.
void put_record(std::string& out, char kind, const std::string& bytes) {
    out.push_back(kind);
    const uint64_t n = bytes.size();
    for (int i = 0; i < 8; ++i) out.push_back(char(uint8_t(n >> (8 * i))));
    out += bytes;
}

struct Record {
    char kind;
    std::string bytes;
};

std::vector<Record> parse_records(const std::string& in) {
    std::vector<Record> r;
    size_t at = 0;
    while (at < in.size()) {
        if (in.size() - at < 9) throw std::logic_error("import: a truncated record from the reading process");
        uint64_t n = 0;
        for (int i = 0; i < 8; ++i) n |= uint64_t(uint8_t(in[at + 1 + size_t(i)])) << (8 * i);
        if (n > in.size() - at - 9) throw std::logic_error("import: a truncated record from the reading process");
        r.push_back({in[at], in.substr(at + 9, size_t(n))});
        at += 9 + size_t(n);
    }
    return r;
}

bool write_all(int fd, const std::string& s) {
    size_t done = 0;
    while (done < s.size()) {
        const ssize_t w = ::write(fd, s.data() + done, s.size() - done);
        if (w < 0 && errno == EINTR) continue;
        if (w <= 0) return false;
        done += size_t(w);
    }
    return true;
}

// The child's memory limit: operator new failing ends the child with kExitMemory (Assimp would
// otherwise catch std::bad_alloc and report "std::exception: std::bad_alloc").
void limit_memory(uint64_t bytes) {
    std::set_new_handler([] { ::_exit(kExitMemory); });
#ifdef VPSIM_IMPORT_ASAN
    // AddressSanitizer reserves terabytes of address space: watch the resident set instead.
    std::thread([bytes] {
        const uint64_t page = uint64_t(::sysconf(_SC_PAGESIZE));
        for (;;) {
            std::ifstream f("/proc/self/statm");
            uint64_t size = 0, resident = 0;
            if (f >> size >> resident && resident * page > bytes) ::_exit(kExitMemory);
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
        }
    }).detach();
#else
    const rlimit r{rlim_t(bytes), rlim_t(bytes)};
    ::setrlimit(RLIMIT_AS, &r);
#endif
}

// The reading child: builds the import and writes its records to `fd`.
int child(const ImportOptions& opt, const ImportLimits& limits, int fd) {
    // The parent's handlers are not the child's: a crash ends the child by its signal.
    for (int sig : {SIGSEGV, SIGBUS, SIGABRT, SIGFPE, SIGILL, SIGINT, SIGTERM, SIGALRM}) std::signal(sig, SIG_DFL);
    if (__sanitizer_set_death_callback) __sanitizer_set_death_callback(nullptr);
    // A backstop should the parent be gone: the child ends itself a little after the time limit.
    ::alarm(unsigned(std::ceil(limits.time_seconds)) + 2);
    limit_memory(limits.memory_mib << 20);
    std::string out;
    int rc = kExitDone;
    try {
        const ImportProduct p = build_import(opt);
        put_record(out, 'R', p.report.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace));
        for (const auto& f : p.files) {
            put_record(out, 'P', f.path);
            put_record(out, 'B', f.bytes);
        }
    } catch (const ImportError& e) {
        out.clear();
        put_record(out, 'E', e.what());
        rc = kExitImportError;
    } catch (const std::bad_alloc&) {
        ::_exit(kExitMemory);
    } catch (const std::exception& e) {
        out.clear();
        put_record(out, 'E', e.what());
        rc = kExitInternal;
    }
    return write_all(fd, out) ? rc : kExitInternal;
}

}  // namespace

void check_limits(const ImportLimits& l, const std::string& file) {
    if (!(l.time_seconds >= kMinTimeLimit && l.time_seconds <= kMaxTimeLimit))
        throw ImportError(fmt::format("{}: --time-limit {}: expected seconds from {} to {}", file, l.time_seconds,
                                      kMinTimeLimit, kMaxTimeLimit));
    if (l.memory_mib < kMinMemoryMiB || l.memory_mib > kMaxMemoryMiB)
        throw ImportError(fmt::format("{}: --memory-limit {}: expected MiB from {} to {}", file, l.memory_mib,
                                      kMinMemoryMiB, kMaxMemoryMiB));
}

nlohmann::json import_model_walled(const ImportOptions& opt, const ImportLimits& limits) {
    const std::string& file = opt.input;
    check_limits(limits, file);
    RunOptions ro;
    ro.out = Stream::Capture;  // the records (the child moves its own stray stdout to stderr)
    ro.err = Stream::Inherit;
    ro.timeout_seconds = limits.time_seconds;
    RunResult r;
    try {
        r = run_function(
            [&] {
                const int fd = ::dup(1);
                ::dup2(2, 1);
                return fd < 0 ? kExitInternal : child(opt, limits, fd);
            },
            ro);
    } catch (const ProcessError& e) {
        throw ImportError(file + ": cannot start the reading process: " + e.what());
    }
    if (r.timed_out)
        throw ImportError(fmt::format("{}: reading the model took longer than the time limit of {} s (--time-limit); "
                                      "nothing written",
                                      file, limits.time_seconds));
    if (r.exited && r.code == kExitMemory)
        throw ImportError(fmt::format("{}: reading the model needs more memory than the limit of {} MiB "
                                      "(--memory-limit); nothing written",
                                      file, limits.memory_mib));
    // A signal, or a status none of the child's own (a sanitizer's report ends a process with exit status 1).
    if (!r.exited || (r.code != kExitDone && r.code != kExitImportError && r.code != kExitInternal))
        throw ImportError(fmt::format("{}: the reading process crashed on the model ({}, peak resident {} MiB, in "
                                      "Assimp's reader or on what it returned); nothing written",
                                      file, r.describe(), r.max_rss_bytes >> 20));
    std::vector<Record> recs = parse_records(r.out);
    r.out.clear();
    r.out.shrink_to_fit();
    if (r.code == kExitImportError && recs.size() == 1 && recs[0].kind == 'E') throw ImportError(recs[0].bytes);
    if (r.code == kExitInternal && recs.size() == 1 && recs[0].kind == 'E') throw std::logic_error(recs[0].bytes);
    if (r.code != kExitDone || recs.empty() || recs[0].kind != 'R' || recs.size() % 2 != 1)
        throw std::logic_error(fmt::format("{}: the import's reading process ended with {} and {} records", file,
                                           r.describe(), recs.size()));
    // The files, each one the options name: in the scene's directory, named after its stem.
    const fs::path scene = opt.output;
    const std::string dir = scene.parent_path().string(), stem = scene.stem().string();
    std::vector<OutputFile> files;
    for (size_t i = 1; i + 1 < recs.size(); i += 2) {
        const fs::path p = recs[i].bytes;
        if (recs[i].kind != 'P' || recs[i + 1].kind != 'B' || p.parent_path().string() != dir ||
            p.filename().string().rfind(stem, 0) != 0)
            throw std::logic_error(fmt::format("{}: the reading process returned a file outside the scene's: {}", file,
                                               recs[i].bytes));
        files.push_back({recs[i].bytes, std::move(recs[i + 1].bytes)});
    }
    if (files.empty() || files.back().path != opt.output)
        throw std::logic_error(file + ": the reading process returned no scene");
    nlohmann::json report = nlohmann::json::parse(recs[0].bytes);
    write_import(files);
    return report;
}

}  // namespace vpsim::import

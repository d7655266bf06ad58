#include "tb/xcheck_stream.h"

#include "tb/xcheck_engine.h"

#include "model/common/file_util.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "tb/decl_gen.h"
#include "tb/drive.h"
#include "tb/replay.h"
#include "tb/shrink.h"

#include <fmt/format.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace vpsim::tb {

StreamCase random_stream(uint64_t seed, uint64_t index, uint64_t k) {
    StreamCase c;
    c.index = index;
    c.first_array = index * k;
    Rng g(seed ^ 0x53545245414D0000ull ^ (index * 0x9E3779B97F4A7C15ull));
    c.bp_seed = g.next();
    for (uint64_t j = 0; j < k; ++j) {
        const ArrayCase a = random_case(seed, c.first_array + j);
        StreamArray s;
        s.tokens = a.tokens;
        s.lenient = a.lenient;
        const uint64_t r = g.next();
        // Half of the boundaries have no gap (the next token on the very next cycle), the others 1-8 idle cycles.
        s.gap = j == 0 || (r & 1) ? 0 : uint32_t(1 + (r >> 1) % 8);
        c.arrays.push_back(std::move(s));
    }
    return c;
}

std::string stream_text(const std::vector<StreamArray>& arrays, uint64_t bp_seed) {
    std::string s = fmt::format("// bp-seed: {:#x}\n", bp_seed);
    for (const auto& a : arrays) {
        s += fmt::format("// stream-array {} gap {}\n", a.lenient ? "lenient" : "strict", a.gap);
        s += decl::to_text(a.tokens);
    }
    return s;
}

StreamCase load_stream_file(const std::string& path) {
    StreamCase c;
    c.path = path;
    std::istringstream in(read_file(path));
    std::string line;
    int n = 0;
    bool have_bp = false;
    struct Section {
        int line;
        std::string text;
    };
    std::vector<Section> sections;
    while (std::getline(in, line)) {
        ++n;
        if (line.rfind("// bp-seed: ", 0) == 0) {
            char* end = nullptr;
            c.bp_seed = std::strtoull(line.c_str() + 12, &end, 0);
            if (end == line.c_str() + 12) throw decl::InputError(path, n, 13, "`// bp-seed:` needs a number");
            have_bp = true;
            continue;
        }
        if (line.rfind("// stream-array", 0) == 0) {
            std::istringstream f(line.substr(15));
            std::string mode, gap_word;
            long long gap = -1;
            f >> mode >> gap_word >> gap;
            if ((mode != "strict" && mode != "lenient") || gap_word != "gap" || gap < 0 || gap > 1000000)
                throw decl::InputError(path, n, 1,
                                       "a stream array line is `// stream-array strict|lenient gap N` (N 0 .. 1000000)");
            StreamArray a;
            a.lenient = mode == "lenient";
            a.gap = uint32_t(gap);
            c.arrays.push_back(a);
            sections.push_back({n, ""});
            continue;
        }
        if (!sections.empty()) sections.back().text += line + "\n";
    }
    if (c.arrays.empty())
        throw decl::InputError(path, "no `// stream-array strict|lenient gap N` line: not a stream file (see docs/xcheck.md)");
    if (!have_bp) throw decl::InputError(path, "no `// bp-seed: N` line (the stream's handshake draws)");
    for (size_t i = 0; i < sections.size(); ++i) {
        // Padded with the lines before it, so parse errors give the line in the file.
        c.arrays[i].tokens = decl::parse_text(std::string(size_t(sections[i].line), '\n') + sections[i].text, path);
        if (c.arrays[i].tokens.empty())
            throw decl::InputError(path, sections[i].line, 1, "this stream array has no tokens (each array needs one)");
    }
    return c;
}

Difference stream_difference(const StreamResult& exp, const StreamResult& act) {
    Difference d;
    if (act.assertion_failed) {
        d.text = "an RTL assertion failed";
        d.signature = "assertion";
        return d;
    }
    for (size_t j = 0; j < exp.arrays.size() && j < act.arrays.size(); ++j) {
        d = difference(exp.arrays[j], act.arrays[j]);
        if (!d.empty()) {
            d.text = fmt::format("array {} of {}: {}", j, exp.arrays.size(), d.text);
            return d;
        }
    }
    return d;
}

std::vector<StreamArray> shrink_stream(std::vector<StreamArray> s,
                                       const std::function<bool(const std::vector<StreamArray>&)>& keeps,
                                       const LastIn& last_in) {
    for (int round = 0; round < 2; ++round) {
        // An array replaced by idle cycles: the next array starts in the same cycle as before.
        for (size_t j = 0; last_in && j + 1 < s.size();) {
            const std::vector<uint64_t> last = last_in(s);
            const uint64_t span = last[j] + 1 - (j ? last[j - 1] + 1 : 0);
            std::vector<StreamArray> c = s;
            const uint64_t gap = uint64_t(c[j + 1].gap) + span;
            if (gap > 1000000) break;
            c[j + 1].gap = uint32_t(gap);
            c.erase(c.begin() + long(j));
            if (keeps(c))
                s = std::move(c);
            else
                ++j;
        }
        s = shrink_keeping<StreamArray>(std::move(s), keeps);  // whole arrays
        for (size_t j = 0; j < s.size(); ++j)  // each array's tokens, by units (never empty)
            s[j].tokens = shrink(s[j].tokens, [&](const std::vector<uint32_t>& t) {
                std::vector<StreamArray> c = s;
                c[j].tokens = t;
                return keeps(c);
            });
        for (size_t j = 0; j < s.size(); ++j) {  // gaps: none, else half
            while (s[j].gap) {
                std::vector<StreamArray> c = s;
                c[j].gap = 0;
                if (keeps(c)) {
                    s = std::move(c);
                    break;
                }
                c[j].gap = s[j].gap / 2;
                if (c[j].gap == s[j].gap || !keeps(c)) break;
                s = std::move(c);
            }
        }
    }
    return s;
}

std::string stream_replay_command(const StreamCase& c, const XcheckOptions& opt) {
    ReplayCommand r({"vpsim", "xcheck"});
    r.args(opt.replay_args);
    if (c.path.empty())
        r.arg("--no-corpus")
            .opt("--seed", (unsigned long long)opt.seed)
            .opt("--stream", (unsigned long long)opt.stream)
            .opt("--only", (unsigned long long)c.index);
    else
        r.opt("--stream-file", c.path);
    r.opt("--out-ready", opt.bp.out_ready).opt("--in-valid", opt.bp.in_valid);
    return r.str();
}

namespace {

size_t tokens_in(const std::vector<StreamArray>& s) {
    size_t n = 0;
    for (const auto& a : s) n += a.tokens.size();
    return n;
}

std::string describe(const StreamCase& c, const XcheckOptions& opt) {
    if (!c.path.empty()) return fmt::format("stream file {} ({} arrays)", c.path, c.arrays.size());
    return fmt::format("random stream {} of --seed {} --stream {} (arrays {}-{})", c.index, opt.seed, opt.stream,
                       c.first_array, c.first_array + c.arrays.size() - 1);
}

// The first `show` failing streams: shrunk, the pins' first divergence, the stream file, the waveform.
void detail_mismatch(const StreamCase& c, const Difference& diff, const XcheckOptions& opt, RtlDut& dut, Mismatch& m,
                     int number) {
    auto both = [&](const std::vector<StreamArray>& s, std::vector<CycleSample>* tm, std::vector<CycleSample>* tr) {
        StreamResult e = run_model_stream(s, c.bp_seed, opt.bp, opt.model, tm), a;
        a.trace = tr;
        dut.run_stream_into(s, c.bp_seed, opt.bp, a);
        return stream_difference(e, a);
    };
    dut.reset();
    const std::vector<StreamArray> shrunk = shrink_stream(c.arrays, [&](const std::vector<StreamArray>& s) {
        dut.reset();  // every candidate from a reset decoder, as a stream file's replay starts
        return both(s, nullptr, nullptr).signature == diff.signature;
    }, [&](const std::vector<StreamArray>& s) { return run_model_stream(s, c.bp_seed, opt.bp, opt.model).last_in; });
    std::vector<CycleSample> tm, tr;
    dut.reset();
    m.shrunk_difference = both(shrunk, &tm, &tr).text;
    const std::string d = first_divergence(tm, tr);
    if (!d.empty()) m.divergence = "on the shrunk stream: " + d;
    m.shrunk_arrays = shrunk.size();
    for (const auto& a : shrunk) m.shrunk.insert(m.shrunk.end(), a.tokens.begin(), a.tokens.end());
    std::fprintf(stderr, "MISMATCH %s\n  %s\n  signature: %s\n  replay: %s\n", describe(c, opt).c_str(),
                 m.first_difference.c_str(), m.signature.c_str(), m.replay.c_str());
    if (!m.divergence.empty()) std::fprintf(stderr, "  %s\n", m.divergence.c_str());
    std::string stem = c.path.empty() ? fmt::format("seed{}-stream{}", opt.seed, c.index)
                                      : std::filesystem::path(c.path).stem().string();
    if (stem.rfind("xcheck-mismatch-", 0) == 0) stem = stem.substr(16);  // a replayed file: no nested names
    const std::string name = fmt::format("{}/xcheck-mismatch-{}-{}.stream", opt.mismatch_dir, stem, number);
    StreamCase self;
    self.path = name;
    const std::string text =
        fmt::format("// vpsim xcheck stream mismatch, shrunk from {} ({} arrays, {} tokens) to {} arrays, {} tokens\n"
                    "// shrunk: {}\n// signature: {}\n// original: {}\n// replay original: {}\n// replay this file: {}\n",
                    describe(c, opt), c.arrays.size(), tokens_in(c.arrays), shrunk.size(), tokens_in(shrunk),
                    m.shrunk_difference, m.signature, m.first_difference, m.replay, stream_replay_command(self, opt)) +
        stream_text(shrunk, c.bp_seed);
    try {
        std::filesystem::create_directories(opt.mismatch_dir);
        write_file_atomic(name, text);
        m.written_to = name;
        std::fprintf(stderr, "  shrunk to %zu arrays, %zu tokens (same signature): %s\n", shrunk.size(), tokens_in(shrunk),
                     name.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "  could not write the shrunk stream: %s\n", e.what());
    }
    if (number == 0 && !opt.wave_dir.empty() && opt.wave_rtl) {
        const std::string f = fmt::format("{}/xcheck-fail-{}.fst", opt.wave_dir, stem);
        try {
            std::unique_ptr<RtlDut> w = opt.wave_rtl();
            std::vector<CycleSample> golden;
            run_model_stream(shrunk, c.bp_seed, opt.bp, opt.model, &golden);
            const bool with_golden = w->set_golden(&golden);
            if (!w->trace_open(f)) throw std::runtime_error("cannot open " + f);
            StreamResult r;
            w->run_stream_into(shrunk, c.bp_seed, opt.bp, r);
            w->trace_close();
            w->set_golden(nullptr);
            m.wave = f;
            std::fprintf(stderr, "  waveform of the shrunk replay (%llu cycles%s): %s\n", (unsigned long long)r.cycles,
                         with_golden ? ", the expected pins in scope golden" : "", f.c_str());
        } catch (const std::exception& e) {
            std::fprintf(stderr, "  no waveform: %s\n", e.what());
        }
    }
}

}  // namespace

namespace {

// The decoder's streams as an adapter of the cross-check engine (tb/xcheck_engine.h): a case is one
// stream, checked from a reset decoder against the golden side; its counts are per array.
class StreamUnit {
public:
    using Case = StreamCase;
    using Counts = ArrayCounts;
    struct Sides {};  // a kept stream is run again to be shrunk
    struct Checker {
        std::unique_ptr<RtlDut> own;
        RtlDut* dut;
        StreamResult exp, act;
    };

    StreamUnit(const XcheckOptions& opt, RtlDut& dut, XcheckReport& rep, uint64_t per_chunk)
        : opt_(opt), dut_(dut), rep_(rep), per_(per_chunk) {}

    // One thread: the instance under check. More: each thread its own.
    std::unique_ptr<Checker> checker(int) {
        auto k = std::make_unique<Checker>();
        if (opt_.jobs > 1) k->own = opt_.rtl ? opt_.rtl() : builtin_rtl();
        k->dut = k->own ? k->own.get() : &dut_;
        return k;
    }
    void chunk_start(Checker&) {}  // every stream starts from a reset decoder (check)
    void stimulus(Checker&, uint64_t i, StreamCase& c) { c = random_stream(opt_.seed, i, opt_.stream); }
    Verdict check(Checker& k, const StreamCase& c, ArrayCounts& n, Sides*) {
        k.dut->reset();  // a stream replays alone exactly
        k.exp = run_model_stream(c.arrays, c.bp_seed, opt_.bp, opt_.model);
        k.dut->run_stream_into(c.arrays, c.bp_seed, opt_.bp, k.act);
        for (size_t j = 0; j < c.arrays.size(); ++j)
            n.count(c.arrays[j].tokens, k.exp.arrays[j].events, k.act.arrays[j].events, c.arrays[j].lenient,
                    opt_.user_bins.get());
        n.cycles += k.exp.cycles;
        Difference d = stream_difference(k.exp, k.act);
        if (d.empty()) return {};
        return {std::move(d.text), std::move(d.signature)};
    }
    std::string where(const StreamCase& c) const { return describe(c, opt_); }
    std::string replay(const StreamCase& c) const { return stream_replay_command(c, opt_); }
    // Every failing stream again with both sides' pins traced: grouped by the first diverging pins.
    void also_mismatch(const StreamCase& c, const std::string& replay) {
        std::vector<CycleSample> tm, tr;
        StreamResult e = run_model_stream(c.arrays, c.bp_seed, opt_.bp, opt_.model, &tm), a;
        a.trace = &tr;
        dut_.reset();
        dut_.run_stream_into(c.arrays, c.bp_seed, opt_.bp, a);
        pins_.add(pin_signature(tm, tr), describe(c, opt_), first_divergence(tm, tr), replay);
    }
    void keep(Kept<StreamUnit>&& k, bool shrink) {
        const StreamCase& c = k.c;
        Mismatch m;
        m.array.origin = c.path.empty() ? "stream" : c.path;
        m.array.path = c.path;
        m.array.index = c.index;
        m.array.bp_seed = c.bp_seed;
        for (const auto& a : c.arrays) m.array.tokens.insert(m.array.tokens.end(), a.tokens.begin(), a.tokens.end());
        m.first_difference = k.verdict.text;
        m.signature = k.verdict.signature;
        m.replay = k.replay;
        if (shrink) detail_mismatch(c, Difference{k.verdict.text, k.verdict.signature, false}, opt_, dut_, m, int(rep_.failures.size()));
        rep_.failures.push_back(std::move(m));
    }
    // JUnit: one test case per chunk of streams (about kRandomChunk arrays), or the stream file.
    std::optional<RecordKey> record_of(const StreamCase& c) const {
        if (!opt_.case_batch) return std::nullopt;
        if (c.path.empty()) return record_of_random(c.index);
        RecordKey r;
        r.key = "file " + c.path;
        r.proto.classname = "xcheck.stream";
        r.proto.name = c.path;
        r.proto.unit_word = "streams";
        return r;
    }
    RecordKey record_of_random(uint64_t first) const {
        RecordKey r;
        r.key = fmt::format("streams {}", first / per_);
        r.proto.classname = "xcheck.stream";
        r.proto.name = fmt::format("streams from {} (seed {}, {} arrays each)", first / per_ * per_, opt_.seed, opt_.stream);
        r.proto.unit_word = "streams";
        return r;
    }
    Triage& pins() { return pins_; }

private:
    const XcheckOptions& opt_;
    RtlDut& dut_;
    XcheckReport& rep_;
    const uint64_t per_;
    Triage pins_;  // by the first diverging pins
};

}  // namespace

std::vector<std::string> check_streams(const XcheckOptions& opt, RtlDut& dut, XcheckReport& rep, Triage& triage) {
    if (opt.systemc) throw std::invalid_argument("--stream and --stream-file run on the fast bench only (not --systemc)");
    // A JUnit test case and a chunk hold the streams of case_batch (or kRandomChunk) arrays.
    const uint64_t k = std::max<uint64_t>(1, opt.stream);
    const uint64_t arrays = opt.case_batch ? opt.case_batch : kRandomChunk;
    const uint64_t per = std::max<uint64_t>(1, (arrays + k - 1) / k);
    StreamUnit unit(opt, dut, rep, per);
    EngineOptions eo;
    const bool named = !opt.stream_file.empty() || opt.only >= 0;
    eo.random = named ? 0 : (opt.random + opt.stream - 1) / opt.stream;  // whole streams
    eo.per_chunk = per;
    eo.jobs = opt.jobs;
    eo.first_mismatch = opt.first_mismatch;
    eo.keep = rep.failures.size() < opt.show ? opt.show - rep.failures.size() : 0;  // the corpus's kept ones count
    eo.records = opt.case_batch > 0;
    eo.progress = opt.progress;
    eo.progress_seconds = opt.progress_seconds;
    eo.noun = "streams";
    Engine<StreamUnit> eng(unit, eo);
    std::vector<std::string> parts;  // the worker threads' coverage (--jobs N > 1)
    if (named) {
        StreamUnit::Checker main{nullptr, &dut, {}, {}};
        const StreamCase c = !opt.stream_file.empty() ? load_stream_file(opt.stream_file)
                                                      : random_stream(opt.seed, uint64_t(opt.only), opt.stream);
        eng.check_named(main, c, unit.record_of(c));
    } else {
        parts = check_random_with_parts<Engine<StreamUnit>, StreamUnit::Checker>(eng, opt);
    }
    rep.add(eng.counts());
    rep.mismatches += eng.mismatches();
    for (auto& r : eng.records()) rep.cases.push_back(std::move(r));
    triage.merge(eng.triage());
    rep.pin_groups = unit.pins().groups();
    return parts;
}

}  // namespace vpsim::tb

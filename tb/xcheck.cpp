#include "tb/xcheck.h"

#include "model/common/file_util.h"
#include "model/decl/decl_decoder_timing.h"
#include "model/decl/decl_io.h"
#include "model/decl/decl_text.h"
#include "tb/chunk_scheduler.h"
#include "tb/decl_gen.h"
#include "tb/drive.h"
#include "tb/replay.h"
#include "tb/shrink.h"
#include "model/rtl/user_rtl.h"
#include "tb/xcheck_engine.h"
#include "tb/xcheck_stream.h"
#include "model/common/process.h"

#include <fmt/format.h>

#include <algorithm>
#include <optional>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <sstream>
#include <stdexcept>

namespace vpsim::tb {

using decl::Event;
using decl::EventKind;

// ---------------------------------------------------------------------------------------
// The model side of the fast path: the golden stepper inside the cycle contract.
namespace {
class ModelSide {
public:
    explicit ModelSide(const decl::DecoderOptions& o) : timing_(o) {}
    void reset() { timing_.reset(); }
    void set_inputs(bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) {
        in_valid_ = in_valid;
        token_ = token;
        last_ = last;
        lenient_ = lenient;
        out_ready_ = out_ready;
    }
    bool in_ready() const { return timing_.in_ready(out_ready_); }
    bool out_valid() const { return timing_.out_valid(); }
    Event event() const { return timing_.out(); }
    void clock() { timing_.tick(in_valid_, token_, last_, lenient_, out_ready_); }

private:
    decl::DeclDecoderTiming timing_;
    bool in_valid_ = false, last_ = false, lenient_ = false, out_ready_ = false;
    uint32_t token_ = 0;
};
}  // namespace

SideResult run_model(const std::vector<uint32_t>& tokens, bool lenient, uint64_t bp_seed, const Backpressure& bp,
                     const decl::DecoderOptions& model, std::vector<CycleSample>* trace) {
    ModelSide side(model);
    SideResult r;
    r.trace = trace;
    drive_array(side, tokens, lenient, bp_seed, bp, r);
    return r;
}

StreamResult run_model_stream(const std::vector<StreamArray>& arrays, uint64_t bp_seed, const Backpressure& bp,
                              const decl::DecoderOptions& model, std::vector<CycleSample>* trace) {
    ModelSide side(model);
    StreamResult r;
    r.trace = trace;
    drive_stream(side, arrays, bp_seed, bp, r);
    return r;
}

void RtlDut::run_stream_into(const std::vector<StreamArray>&, uint64_t, const Backpressure&, StreamResult&) {
    throw std::logic_error("this RTL side cannot drive streams of arrays");
}

namespace {
// An event's kind for a signature: ERROR with its rule ("ERROR D9"), the others by name.
std::string kind_sig(const Event& e) {
    std::string k = decl::event_kind_name(e.kind);
    if (e.kind == EventKind::Error) k += " " + decl::rule_id(e.code);
    return k;
}
// The first field in which two events differ.
const char* first_field(const Event& a, const Event& b) {
    if (a.kind != b.kind) return "kind";
    if (a.kind == EventKind::Error && a.code != b.code) return "rule";
    if (a.stream != b.stream) return "stream";
    if (a.value != b.value) return "value";
    if (a.code != b.code) return "code";
    if (a.reg != b.reg) return "reg";
    return "data";
}
// Two events in words, each with every field when the words do not tell them apart (a field
// the kind does not use, which must be 0, or out_data on a non-CONST event).
std::pair<std::string, std::string> event_texts(const Event& a, const Event& b) {
    auto raw = [](const Event& e) {
        return fmt::format("[kind {} stream {} value {} code {} reg {} data {:08x} {:08x} {:08x} {:08x}]", unsigned(e.kind),
                           e.stream, e.value, e.code, e.reg, e.data[0], e.data[1], e.data[2], e.data[3]);
    };
    std::string m = decl::to_string(a), r = decl::to_string(b);
    if (m == r && a != b) {
        m += " " + raw(a);
        r += " " + raw(b);
    }
    return {m, r};
}
}  // namespace

Difference difference(const SideResult& exp, const SideResult& act) {
    Difference d;
    if (act.assertion_failed) {
        d.text = "an RTL assertion failed";
        d.signature = "assertion";
        return d;
    }
    if (exp.timed_out != act.timed_out) {
        d.text = exp.timed_out ? "the model did not finish the array" : "the RTL did not finish the array";
        d.signature = exp.timed_out ? "timeout (model)" : "timeout (rtl)";
        return d;
    }
    const size_t n = std::min(exp.events.size(), act.events.size());
    for (size_t i = 0; i < n; ++i)
        if (exp.events[i] != act.events[i]) {
            const auto [m, r] = event_texts(exp.events[i], act.events[i]);
            d.text = fmt::format("event {}: model {} | rtl {}", i, m, r);
            const std::string km = kind_sig(exp.events[i]), kr = kind_sig(act.events[i]);
            d.signature = fmt::format("event {}: {}", km == kr ? km : km + " | " + kr, first_field(exp.events[i], act.events[i]));
            return d;
        }
    if (exp.events.size() != act.events.size()) {
        const bool model_longer = exp.events.size() > act.events.size();
        const Event& extra = model_longer ? exp.events[n] : act.events[n];
        d.text = fmt::format("event {}: {} has {} | {} has none", n, model_longer ? "model" : "rtl", decl::to_string(extra),
                             model_longer ? "rtl" : "model");
        d.signature = fmt::format("{} event {} in rtl", model_longer ? "missing" : "extra", kind_sig(extra));
        return d;
    }
    if (exp.cycles != act.cycles) {
        d.text = fmt::format("cycles: model {} | rtl {}", exp.cycles, act.cycles);
        d.signature = "cycles";
        d.cycles_only = true;
    }
    return d;
}

std::string compare(const SideResult& exp, const SideResult& act) { return difference(exp, act).text; }

std::string first_divergence(const std::vector<CycleSample>& m, const std::vector<CycleSample>& r) {
    const size_t n = std::min(m.size(), r.size());
    for (size_t c = 0; c < n; ++c) {
        const CycleSample &a = m[c], &b = r[c];
        std::string d;
        auto pin = [&](const char* name, bool x, bool y) {
            if (x != y) d += fmt::format("{}{} model {} | rtl {}", d.empty() ? "" : "; ", name, int(x), int(y));
        };
        pin("in_valid", a.in_valid, b.in_valid);
        pin("in_ready", a.in_ready, b.in_ready);
        pin("out_valid", a.out_valid, b.out_valid);
        if (a.out_valid && b.out_valid && a.event != b.event) {
            const auto [em, er] = event_texts(a.event, b.event);
            d += fmt::format("{}event model {} | rtl {}", d.empty() ? "" : "; ", em, er);
        }
        if (!d.empty())
            return fmt::format("first diverging cycle {} (of model {} | rtl {}): {}", c, m.size(), r.size(), d);
    }
    if (m.size() != r.size())
        return fmt::format("the pins agree for {} cycles; then the {} goes on for {} more", n,
                           m.size() > r.size() ? "model" : "rtl", (m.size() > r.size() ? m.size() : r.size()) - n);
    return "";
}

std::string pin_signature(const std::vector<CycleSample>& m, const std::vector<CycleSample>& r) {
    const size_t n = std::min(m.size(), r.size());
    for (size_t c = 0; c < n; ++c) {
        const CycleSample &a = m[c], &b = r[c];
        std::string d;
        auto add = [&](const std::string& what) { d += (d.empty() ? "" : "; ") + what; };
        if (a.in_valid != b.in_valid) add("in_valid");
        if (a.in_ready != b.in_ready) add(fmt::format("in_ready model {} | rtl {}", int(a.in_ready), int(b.in_ready)));
        if (a.out_valid != b.out_valid) add(fmt::format("out_valid model {} | rtl {}", int(a.out_valid), int(b.out_valid)));
        if (a.out_valid && b.out_valid && a.event != b.event)
            add(a.event.kind != b.event.kind ? fmt::format("event kind {} | {}", kind_sig(a.event), kind_sig(b.event))
                                             : fmt::format("event fields {}", decl::event_kind_name(a.event.kind)));
        if (!d.empty()) return d;
    }
    if (m.size() != r.size()) return fmt::format("pins agree, {} longer", m.size() > r.size() ? "model" : "rtl");
    return "";
}

// ---------------------------------------------------------------------------------------
// Coverage
namespace {
// Token kinds as the decoder sees them at token positions (payloads skipped).
enum TokKind { kNop, kNopBits, kStream, kStreamTess, kReg, kSkip, kTessNormal, kTessUV, kConst, kExt, kReserved, kEnd };
constexpr const char* kTokKindNames[Coverage::kTokenKinds] = {
    "NOP", "NOP with bits", "STREAM", "STREAM_TESS", "REG", "SKIP", "TESSNORMAL", "TESSUV", "CONST", "EXT",
    "type 6", "END / type 7"};
}  // namespace

const char* Coverage::token_kind_name(int k) { return kTokKindNames[k]; }

// Without a branch on the token (a random one in the cross-check, so a mispredicted branch): the
// kind from a table by type and the one bit that splits the type (any low bit for NOP), the
// payload and the REG type counted by arithmetic.
void Coverage::count_tokens(const std::vector<uint32_t>& tokens) {
    using decl::kDataLoadTypeBit;
    using decl::kStreamTessBit;
    static constexpr uint32_t kSplit[8] = {0x1FFFFFFFu, kStreamTessBit, kDataLoadTypeBit, kDataLoadTypeBit, 0, 0, 0, 0};
    static constexpr uint8_t kKind[8][2] = {{kNop, kNopBits},       {kStream, kStreamTess}, {kReg, kSkip},
                                            {kTessNormal, kTessUV}, {kConst, kConst},       {kExt, kExt},
                                            {kReserved, kReserved}, {kEnd, kEnd}};
    static_assert(uint32_t(decl::TokenType::StreamData) == 2 && uint32_t(decl::TokenType::ConstMem) == 4 &&
                  uint32_t(decl::TokenType::Ext) == 5);
    for (size_t i = 0; i < tokens.size(); ++i) {
        const uint32_t t = tokens[i];
        const uint32_t type = uint32_t(decl::token_type(t));
        const int k = kKind[type][(t & kSplit[type]) != 0];
        ++token_kinds[k];
        data_types[(t & decl::kDataTypeMask) >> decl::kDataTypeShift] += uint64_t(k == kReg);
        const uint32_t const_words = 4 * ((t & decl::kConstCountMask) >> decl::kConstCountShift);
        const uint32_t ext_words = (t & decl::kExtCountMask) >> decl::kExtCountShift;
        i += (type == 4 ? const_words : 0) + (type == 5 ? ext_words : 0);
    }
}

void Coverage::add(const Coverage& o) {
    for (size_t i = 0; i < token_kinds.size(); ++i) token_kinds[i] += o.token_kinds[i];
    for (size_t i = 0; i < data_types.size(); ++i) data_types[i] += o.data_types[i];
    for (int side = 0; side < 2; ++side) {
        for (size_t i = 0; i < events[side].size(); ++i) events[side][i] += o.events[side][i];
        for (size_t i = 0; i < rules[side].size(); ++i) rules[side][i] += o.rules[side][i];
        for (size_t i = 0; i < lenient_rules[side].size(); ++i) lenient_rules[side][i] += o.lenient_rules[side][i];
    }
}

void Coverage::count_events(int side, const std::vector<Event>& evs, bool lenient) {
    for (const Event& e : evs) {
        ++events[side][unsigned(e.kind)];
        if (e.kind == EventKind::Error && e.code >= 1 && e.code <= 14) ++(lenient ? lenient_rules : rules)[side][e.code];
    }
}

std::vector<std::string> Coverage::holes() const {
    std::vector<std::string> h;
    for (int k = 0; k < kTokenKinds; ++k)
        if (!token_kinds[k]) h.push_back(fmt::format("token {}", kTokKindNames[k]));
    for (int t = 0; t < 16; ++t)
        if (!data_types[t]) h.push_back(fmt::format("REG data type {}", t));
    static const char* side_name[2] = {"model", "rtl"};
    for (int s = 0; s < 2; ++s) {
        for (unsigned k = 0; k < decl::kNumEventKinds; ++k)
            if (!events[s][k]) h.push_back(fmt::format("event {} ({})", decl::event_kind_name(EventKind(k)), side_name[s]));
        for (int r = 1; r <= 14; ++r)
            if (!rules[s][r]) h.push_back(fmt::format("strict rule {} ({})", decl::rule_id(r), side_name[s]));
        // Lenient mode turns rules 3, 4, 7, 8, 9 and 10 into warnings; the others must still be hit.
        for (int r : {1, 2, 5, 6, 11, 12, 13, 14})
            if (!lenient_rules[s][r]) h.push_back(fmt::format("lenient rule {} ({})", decl::rule_id(r), side_name[s]));
    }
    return h;
}

std::string Coverage::table() const {
    std::string s = "coverage                      model        rtl\n";
    for (int k = 0; k < kTokenKinds; ++k)
        s += fmt::format("  token {:<22} {:>10} {:>10}\n", kTokKindNames[k], token_kinds[k], token_kinds[k]);
    for (int t = 0; t < 16; ++t) {
        const char* n = decl::data_type_name(uint32_t(t));
        s += fmt::format("  REG type {:<19} {:>10} {:>10}\n", n ? n : fmt::format("{} (invalid)", t),
                         data_types[t], data_types[t]);
    }
    for (unsigned k = 0; k < decl::kNumEventKinds; ++k)
        s += fmt::format("  event {:<22} {:>10} {:>10}\n", decl::event_kind_name(EventKind(k)), events[0][k], events[1][k]);
    for (int r = 1; r <= 14; ++r)
        s += fmt::format("  rule {:<4}{:<19} {:>10} {:>10}   lenient {:>8} {:>8}\n", decl::rule_id(r), decl::rule_name(r),
                         rules[0][r], rules[1][r], lenient_rules[0][r], lenient_rules[1][r]);
    return s;
}

// ---------------------------------------------------------------------------------------
std::vector<std::pair<size_t, size_t>> token_units(const std::vector<uint32_t>& tokens) {
    std::vector<std::pair<size_t, size_t>> u;
    for (size_t i = 0; i < tokens.size();) {
        const uint32_t t = tokens[i];
        size_t payload = 0;
        if (decl::token_type(t) == decl::TokenType::ConstMem)
            payload = 4 * ((t & decl::kConstCountMask) >> decl::kConstCountShift);
        else if (decl::token_type(t) == decl::TokenType::Ext)
            payload = (t & decl::kExtCountMask) >> decl::kExtCountShift;
        const size_t end = std::min(tokens.size(), i + 1 + payload);
        u.emplace_back(i, end);
        i = end;
    }
    return u;
}

std::vector<std::vector<uint32_t>> simpler_arrays(const std::vector<uint32_t>& tokens) {
    std::vector<std::vector<uint32_t>> out;
    for (const auto& [first, last] : token_units(tokens)) {
        const uint32_t t = tokens[first];
        const bool is_const = decl::token_type(t) == decl::TokenType::ConstMem;
        const bool is_ext = decl::token_type(t) == decl::TokenType::Ext;
        if (!is_const && !is_ext) continue;
        const uint32_t mask = is_const ? decl::kConstCountMask : decl::kExtCountMask;
        const uint32_t shift = is_const ? decl::kConstCountShift : decl::kExtCountShift;
        const uint32_t count = (t & mask) >> shift;
        const size_t words = is_const ? 4 : 1;
        if (count == 0 || last - first < 1 + words * count) continue;  // cut by the array's end: leave it
        std::vector<uint32_t> c(tokens.begin(), tokens.begin() + long(first));
        c.push_back((t & ~mask) | ((count - 1) << shift));
        c.insert(c.end(), tokens.begin() + long(first + 1), tokens.begin() + long(last - words));
        c.insert(c.end(), tokens.begin() + long(last), tokens.end());
        out.push_back(std::move(c));
    }
    return out;
}

std::vector<uint32_t> shrink(std::vector<uint32_t> tokens, const std::function<bool(const std::vector<uint32_t>&)>& keeps) {
    ShrinkSpec<uint32_t> spec;
    spec.units = token_units;
    spec.simplify = simpler_arrays;
    return shrink_keeping<uint32_t>(std::move(tokens), keeps, spec);
}

namespace {
// Mixes a seed and an index into an independent seed, so each random array replays alone.
uint64_t derive_seed(uint64_t seed, uint64_t index) {
    Rng r(seed ^ (index * 0xD1B54A32D192ED03ull));
    return r.next();
}
}  // namespace

ArrayCase random_case(uint64_t seed, uint64_t index) {
    Rng rng(derive_seed(seed, index));
    ArrayCase c;
    c.tokens = gen_mixed(rng, c.lenient);
    c.origin = "random";
    c.index = index;
    c.bp_seed = rng.next();
    return c;
}

void random_case(uint64_t seed, uint64_t index, ArrayCase& c, GenScratch& scratch) {
    Rng rng(derive_seed(seed, index));
    gen_mixed(rng, c.lenient, c.tokens, scratch);
    if (c.origin != "random") c.origin = "random";
    c.index = index;
    c.bp_seed = rng.next();
}

std::vector<ArrayCase> load_corpus(const std::vector<std::string>& paths) {
    std::vector<std::filesystem::path> files;
    for (const auto& p : paths) {
        std::error_code ec;
        if (std::filesystem::is_directory(p, ec)) {
            std::vector<std::filesystem::path> in_dir;
            for (const auto& entry : std::filesystem::directory_iterator(p)) {
                const auto ext = entry.path().extension().string();
                if (entry.is_regular_file() && (ext == ".decl" || ext == ".hex" || ext == ".bin"))
                    in_dir.push_back(entry.path());
            }
            if (in_dir.empty()) throw decl::InputError(p, "no .decl, .hex or .bin token arrays in this directory");
            std::sort(in_dir.begin(), in_dir.end());
            files.insert(files.end(), in_dir.begin(), in_dir.end());
        } else if (std::filesystem::exists(p, ec)) {
            files.emplace_back(p);  // a file given by name: any format decl::load_tokens reads
        } else {
            throw decl::InputError(p, "no such file or directory (--corpus takes token array files and directories)");
        }
    }
    std::vector<ArrayCase> out;
    uint64_t i = 0;
    for (const auto& f : files) {
        auto tokens = decl::load_tokens(f.string());
        if (tokens.empty()) continue;  // nothing to drive
        // A shrunk file's back-pressure pattern: `// bp-seed: N` (text forms only).
        std::optional<uint64_t> bp;
        if (decl::format_for_path(f.string()) != decl::TokenFormat::Binary) {
            std::istringstream in(read_file(f.string()));
            std::string line;
            while (std::getline(in, line))
                if (line.rfind("// bp-seed: ", 0) == 0) bp = std::strtoull(line.c_str() + 12, nullptr, 0);
        }
        for (bool lenient : {false, true}) {
            ArrayCase c;
            c.tokens = tokens;
            c.lenient = lenient;
            c.origin = f.filename().string();
            c.path = f.string();
            c.index = i;
            c.bp_seed = bp ? *bp : derive_seed(0xC0DEC0DE, i);
            ++i;
            out.push_back(std::move(c));
        }
    }
    return out;
}

std::vector<ArrayCase> load_corpus(const std::string& path) { return load_corpus(std::vector<std::string>{path}); }

std::vector<Exclusion> unreachable_bins(const decl::DecoderOptions& model, const UserCoverageSpec* user) {
    // Every CONST header, address 0..127 and count 0..15, at index 0 (the earliest a header can
    // be: tokens before it only move its payload later) with its payload and END, decoded in both
    // modes with the design's CONST_COUNT and MAX_LENGTH: rule 12 (a CONST past the constant
    // registers) and the CONST event (made by the 4th word of a payload vector; rule 14 ends the
    // array at index MAX_LENGTH) are reachable only if one of them makes it.
    std::vector<Exclusion> out;
    bool const_event = false;
    for (bool lenient : {false, true}) {
        decl::DecoderOptions o = model;
        o.lenient = lenient;
        o.diagnostics = false;
        bool reachable = false;
        for (uint32_t addr = 0; addr <= decl::kConstAddressMask; ++addr)
            for (uint32_t count = 0; count <= 15; ++count) {
                std::vector<uint32_t> t = {decl::D3DVSD_CONST(addr, count)};
                t.resize(1 + 4 * count, 0x3F800000u);
                t.push_back(decl::D3DVSD_END());
                for (const Event& e : decl::decode(t, o).events) {
                    if (e.kind == EventKind::Error && e.code == 12) reachable = true;
                    if (e.kind == EventKind::Const) const_event = true;
                }
            }
        if (!reachable)
            out.push_back({fmt::format("{} rule D12 (*)", lenient ? "lenient" : "strict"),
                           fmt::format("CONST_COUNT={}: every CONST header (address <= {}, count <= 15) stays in range",
                                       model.const_count, decl::kConstAddressMask)});
    }
    if (!const_event) {
        const std::string why = fmt::format(
            "MAX_LENGTH={}: a CONST event needs a CONST header and the 4 words of a payload vector; every CONST header "
            "(address <= {}, count <= 15) at index 0 reaches rule 14 first",
            model.max_length, decl::kConstAddressMask);
        out.push_back({"event CONST (*)", why});
        if (user) {
            auto u = user_exclusions(*user, [&](const UserBin& b) {
                return b.on_event && b.kind == int(EventKind::Const) ? why : std::string();
            });
            out.insert(out.end(), u.begin(), u.end());
        }
    }
    return out;
}

// ---------------------------------------------------------------------------------------
std::string replay_command(const ArrayCase& c, const XcheckOptions& opt) {
    ReplayCommand r({"vpsim", "xcheck"});
    r.args(opt.replay_args);
    if (opt.systemc) r.arg("--systemc");
    if (c.origin == "random")
        r.arg("--no-corpus").opt("--seed", (unsigned long long)opt.seed).opt("--only", (unsigned long long)c.index);
    else
        r.opt("--corpus", c.path.empty() ? c.origin : c.path).opt("--random", 0);
    r.opt("--out-ready", opt.bp.out_ready).opt("--in-valid", opt.bp.in_valid);
    return r.str();
}

namespace {

std::string describe(const ArrayCase& c, uint64_t seed) {
    if (c.origin == "random")
        return fmt::format("random array {} of --seed {} ({} mode)", c.index, seed, c.lenient ? "lenient" : "strict");
    return fmt::format("corpus {} ({} mode)", c.origin, c.lenient ? "lenient" : "strict");
}

// The golden verdict in the corpus header form: "// expect: strict error D4 @1; lenient valid".
std::string expect_line(const std::vector<uint32_t>& tokens) {
    std::string part[2];
    for (int mode = 0; mode < 2; ++mode) {
        decl::DecoderOptions o;
        o.lenient = mode == 1;
        const decl::Declaration d = decl::decode(tokens, o);
        part[mode] = "valid";
        for (const Event& e : d.events)
            if (e.kind == EventKind::Error) part[mode] = fmt::format("error {} @{}", decl::rule_id(e.code), e.value);
    }
    return part[0] == part[1] ? "// expect: " + part[0] : fmt::format("// expect: strict {}; lenient {}", part[0], part[1]);
}

void report_mismatch(Mismatch& m, const XcheckOptions& opt, int number) {
    const auto& c = m.array;
    std::fprintf(stderr, "MISMATCH %s\n  %s\n  signature: %s\n  replay: %s\n", describe(c, opt.seed).c_str(),
                 m.first_difference.c_str(), m.signature.c_str(), m.replay.c_str());
    if (!m.divergence.empty()) std::fprintf(stderr, "  %s\n", m.divergence.c_str());
    std::fprintf(stderr, "  array (%zu tokens):", c.tokens.size());
    for (size_t i = 0; i < c.tokens.size() && i < 64; ++i) std::fprintf(stderr, " %08X", c.tokens[i]);
    std::fprintf(stderr, "%s\n", c.tokens.size() > 64 ? " ..." : "");
    // A random array: xcheck-mismatch-seed<S>-<i>-<n>.decl. A corpus file: named after the file; a
    // shrunk file replayed again gets its own name with one more -<n>, not the whole name nested.
    std::string stem = std::filesystem::path(c.origin).stem().string();
    if (stem.rfind("xcheck-mismatch-", 0) == 0) stem = stem.substr(16);
    const std::string name =
        c.origin == "random" ? fmt::format("{}/xcheck-mismatch-seed{}-{}-{}.decl", opt.mismatch_dir, opt.seed, c.index, number)
        : std::filesystem::path(c.origin).stem().string().rfind("xcheck-mismatch-", 0) == 0
            ? fmt::format("{}/xcheck-mismatch-{}-{}.decl", opt.mismatch_dir, stem, number)
            : fmt::format("{}/xcheck-mismatch-seed{}-{}-{}.decl", opt.mismatch_dir, opt.seed, c.origin, number);
    // Ready for tb/corpus/: line 2 states the golden model's verdict (tests/test_corpus.cpp). The
    // header has the replay of the original array, and the shrunk file's own replay carries its
    // back-pressure pattern (bp-seed) and the options that shaped the run.
    XcheckOptions as_corpus = opt;
    ArrayCase self = c;
    self.origin = name;
    self.path = name;
    std::string text = fmt::format(
        "// vpsim xcheck mismatch ({} mode), shrunk from {} ({} tokens to {})\n{}\n// shrunk: {}\n"
        "// signature: {}\n// original: {}\n// replay original: {}\n// replay this file: {}\n// bp-seed: {:#x}\n",
        c.lenient ? "lenient" : "strict", describe(c, opt.seed), c.tokens.size(), m.shrunk.size(), expect_line(m.shrunk),
        m.shrunk_difference, m.signature, m.first_difference, m.replay, replay_command(self, as_corpus), c.bp_seed);
    text += decl::to_text(m.shrunk);
    try {
        std::filesystem::create_directories(opt.mismatch_dir);
        write_file_atomic(name, text);
        m.written_to = name;
        std::fprintf(stderr, "  shrunk to %zu tokens (same signature): %s\n", m.shrunk.size(), name.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "  could not write the shrunk array: %s\n", e.what());
    }
}

}  // namespace

void ArrayCounts::add(const ArrayCounts& o) {
    arrays += o.arrays;
    tokens += o.tokens;
    events += o.events;
    cycles += o.cycles;
    coverage.add(o.coverage);
    user.add(o.user);
}

void ArrayCounts::count(const std::vector<uint32_t>& t, const std::vector<Event>& model, const std::vector<Event>& rtl,
                        bool lenient, const UserCoverageSpec* spec) {
    ++arrays;
    tokens += t.size();
    events += model.size();
    coverage.count_tokens(t);
    coverage.count_events(0, model, lenient);
    coverage.count_events(1, rtl, lenient);
    if (spec) user.count(*spec, t, model, lenient);
}

namespace {

// Item 6 of issue 34: every mismatching array again from a reset decoder with both sides' pins
// traced, grouped by the pins that differ at the first cycle the sides part (cycle-aligned: one
// bug whose events fall out of step is one group). On an instance of its own, made when first
// needed, so the instance under check keeps its state; not with first_mismatch or the SystemC bench.
struct PinTriage {
    explicit PinTriage(const XcheckOptions& o) : opt(o) {}
    void add(const ArrayCase& c, const std::string& replay) {
        if (opt.first_mismatch || opt.systemc) return;
        if (!dut) dut = opt.rtl ? opt.rtl() : builtin_rtl();
        std::vector<CycleSample> tm, tr;
        run_model(c.tokens, c.lenient, c.bp_seed, opt.bp, opt.model, &tm);
        SideResult rr;
        rr.trace = &tr;
        dut->reset();
        dut->run_into(c.tokens, c.lenient, c.bp_seed, opt.bp, rr);
        const std::string sig = pin_signature(tm, tr);
        triage.add(sig.empty() ? "pins agree from reset (the mismatch needs the state an earlier array left)" : sig,
                   describe(c, opt.seed), first_divergence(tm, tr), replay);
    }
    const XcheckOptions& opt;
    std::unique_ptr<RtlDut> dut;
    Triage triage;
};

// opt.coverage_file: this thread's instance's coverage (corpus, shrinking), summed with the worker
// threads' parts by verilator_coverage.
void write_coverage(const XcheckOptions& opt, RtlDut& dut, const std::vector<std::string>& coverage_parts) {
    if (coverage_parts.empty()) {
        if (!dut.write_coverage(opt.coverage_file))
            throw std::runtime_error(opt.coverage_file + ": the RTL was not built with coverage, nothing to write");
    } else {
        const std::string mine = opt.coverage_file + ".part0";
        if (!dut.write_coverage(mine)) throw std::runtime_error(mine + ": the RTL was not built with coverage");
        std::vector<std::string> argv = {"verilator_coverage", "--write", opt.coverage_file, mine};
        argv.insert(argv.end(), coverage_parts.begin(), coverage_parts.end());
        std::string out;
        if (run_command(argv, "", out) != 0)
            throw std::runtime_error(fmt::format("{}: verilator_coverage could not merge the parts: {}", opt.coverage_file, out));
        std::error_code ec;
        std::filesystem::remove(mine, ec);
        for (const auto& f : coverage_parts) std::filesystem::remove(f, ec);
    }
}

// The arrays' pin groups, then the streams' (check_streams: already in rep.pin_groups), one group
// per pin signature, largest first.
void merge_pin_groups(const Triage& pins, XcheckReport& rep) {
    std::vector<TriageGroup> all = pins.groups();
    for (const auto& g : rep.pin_groups) {
        auto it = std::find_if(all.begin(), all.end(), [&](const TriageGroup& x) { return x.signature == g.signature; });
        if (it == all.end())
            all.push_back(g);
        else
            it->count += g.count;
    }
    std::stable_sort(all.begin(), all.end(), [](const TriageGroup& a, const TriageGroup& b) { return a.count > b.count; });
    rep.pin_groups = std::move(all);
}

// --wave-on-fail: the first failure's shrunk replay again, on a model built with FST tracing; the
// golden side's pins go into the same file (scope `golden`) when the design allows it.
void write_failure_wave(const XcheckOptions& opt, const ArrayCase& c, Mismatch& m) {
    const std::string f = fmt::format("{}/xcheck-fail-seed{}-{}.fst", opt.wave_dir, opt.seed,
                                      c.origin == "random" ? fmt::format("{}", c.index) : c.origin);
    try {
        std::unique_ptr<RtlDut> w = opt.wave_rtl();
        std::vector<CycleSample> golden;
        run_model(m.shrunk, c.lenient, c.bp_seed, opt.bp, opt.model, &golden);
        const bool with_golden = w->set_golden(&golden);
        if (!w->trace_open(f)) throw std::runtime_error("cannot open " + f);
        const SideResult replay = w->run(m.shrunk, c.lenient, c.bp_seed, opt.bp);
        w->trace_close();
        w->set_golden(nullptr);
        m.wave = f;
        std::fprintf(stderr, "  waveform of the shrunk replay (%llu cycles%s): %s\n", (unsigned long long)replay.cycles,
                     with_golden ? ", the expected pins in scope golden" : "", f.c_str());
    } catch (const std::exception& e) {
        std::fprintf(stderr, "  no waveform: %s\n", e.what());
    }
}

// The decoder's adapter for the cross-check engine (tb/xcheck_engine.h): a case is one token
// array, its sides the golden stepper and the RTL under the same handshake draws, its counts the
// tokens, events, cycles and coverage bins, a kept mismatch shrunk by units, written as a corpus
// file and (the first) traced.
struct DeclSides {
    SideResult exp, act;
};

class DeclUnit {
public:
    using Case = ArrayCase;
    using Counts = ArrayCounts;
    using Sides = DeclSides;
    // One thread's tools: its RTL instance (made on this thread), the golden side and the
    // buffers, all reused from array to array.
    struct Checker {
        std::unique_ptr<RtlDut> own;
        RtlDut* dut;
        ModelSide model;
        GenScratch scratch;
        SideResult exp, act;
        // With `borrow`, that instance (made on this thread) instead of a new one.
        Checker(const XcheckOptions& opt, RtlDut* borrow)
            : own(borrow ? nullptr : opt.rtl ? opt.rtl() : builtin_rtl()), dut(borrow ? borrow : own.get()), model(opt.model) {}
    };

    DeclUnit(const XcheckOptions& opt, XcheckReport& rep) : opt_(opt), rep_(rep), dut_(opt.rtl ? opt.rtl() : builtin_rtl()), pins_(opt) {}

    // One thread: the named arrays' instance (one model, as before chunks). More: each thread its own.
    std::unique_ptr<Checker> checker(int) { return std::make_unique<Checker>(opt_, opt_.jobs == 1 ? dut_.get() : nullptr); }
    void chunk_start(Checker& k) { k.dut->reset(); }
    void stimulus(Checker& k, uint64_t i, ArrayCase& c) { random_case(opt_.seed, i, c, k.scratch); }
    Verdict check(Checker& k, const ArrayCase& c, ArrayCounts& n, DeclSides* s) {
        k.model.reset();
        drive_array(k.model, c.tokens, c.lenient, c.bp_seed, opt_.bp, k.exp);
        k.dut->run_into(c.tokens, c.lenient, c.bp_seed, opt_.bp, k.act);
        count(c, k.exp, k.act, n);
        Difference d = difference(k.exp, k.act);
        if (d.empty()) return {};
        if (s) s->exp = k.exp, s->act = k.act;
        return {std::move(d.text), std::move(d.signature)};
    }
    void count(const ArrayCase& c, const SideResult& exp, const SideResult& act, ArrayCounts& n) const {
        n.count(c.tokens, exp.events, act.events, c.lenient, opt_.user_bins.get());
        n.cycles += exp.cycles;
    }
    std::string where(const ArrayCase& c) const { return describe(c, opt_.seed); }
    std::string replay(const ArrayCase& c) const { return replay_command(c, opt_); }
    void also_mismatch(const ArrayCase& c, const std::string& replay) { pins_.add(c, replay); }
    void keep(Kept<DeclUnit>&& k, bool shrink);
    // JUnit (opt.case_batch): one test case per corpus file, one per case_batch random arrays.
    std::optional<RecordKey> record_of(const ArrayCase& c) const {
        if (!opt_.case_batch) return std::nullopt;
        RecordKey r;
        if (c.origin == "random") {
            const uint64_t b = c.index / opt_.case_batch;
            const uint64_t first = b * opt_.case_batch;
            const uint64_t last = opt_.only >= 0 ? c.index : std::min(opt_.random, first + opt_.case_batch) - 1;
            r.proto.classname = "xcheck.random";
            r.proto.name = opt_.only >= 0 ? fmt::format("random array {} (seed {})", c.index, opt_.seed)
                                          : fmt::format("random arrays {}-{} (seed {})", first, last, opt_.seed);
            r.key = "random " + std::to_string(b);
        } else {
            r.proto.classname = "xcheck.corpus";
            r.proto.name = c.origin;
            r.key = "corpus " + c.origin;
        }
        return r;
    }
    RecordKey record_of_random(uint64_t first) const {  // (called with case_batch only)
        ArrayCase probe;
        probe.origin = "random";
        probe.index = first;
        return *record_of(probe);  // a chunk lies inside one batch (case_batch % kRandomChunk == 0)
    }

    RtlDut& dut() { return *dut_; }
    Triage& pin_triage() { return pins_.triage; }

private:
    const XcheckOptions& opt_;
    XcheckReport& rep_;
    std::unique_ptr<RtlDut> dut_;
    PinTriage pins_;
};

// A kept mismatch, in array order: as it is (--first-mismatch), or shrunk from a reset decoder
// keeping its signature, where the pins first part on the shrunk array, reported and written as a
// corpus file, and the first one traced (--wave-on-fail).
void DeclUnit::keep(Kept<DeclUnit>&& k, bool shrink) {
    Mismatch m;
    m.array = std::move(k.c);
    m.expected = std::move(k.sides.exp);
    m.actual = std::move(k.sides.act);
    m.first_difference = std::move(k.verdict.text);
    m.signature = std::move(k.verdict.signature);
    m.replay = std::move(k.replay);
    if (shrink) {
        const ArrayCase& c = m.array;
        auto model = [&](const std::vector<uint32_t>& t) { return run_model(t, c.lenient, c.bp_seed, opt_.bp, opt_.model); };
        auto rtl = [&](const std::vector<uint32_t>& t) { return dut_->run(t, c.lenient, c.bp_seed, opt_.bp); };
        dut_->reset();  // shrinking starts from a reset decoder, whatever ran before (any --jobs)
        m.shrunk = tb::shrink(c.tokens, [&](const std::vector<uint32_t>& t) {
            return difference(model(t), rtl(t)).signature == m.signature;
        });
        m.shrunk_difference = compare(model(m.shrunk), rtl(m.shrunk));
        std::vector<CycleSample> tm, tr;
        run_model(m.shrunk, c.lenient, c.bp_seed, opt_.bp, opt_.model, &tm);
        SideResult rr;
        rr.trace = &tr;
        dut_->run_into(m.shrunk, c.lenient, c.bp_seed, opt_.bp, rr);
        const std::string d = first_divergence(tm, tr);
        if (!d.empty()) m.divergence = "on the shrunk array: " + d;
        report_mismatch(m, opt_, int(rep_.failures.size()));
        if (rep_.failures.empty() && !opt_.wave_dir.empty() && opt_.wave_rtl) write_failure_wave(opt_, c, m);
    }
    rep_.failures.push_back(std::move(m));
}

EngineOptions engine_options(const XcheckOptions& opt) {
    EngineOptions e;
    e.random = opt.only >= 0 || opt.per_array_path || opt.stream > 0 || !opt.stream_file.empty() ? 0 : opt.random;
    e.per_chunk = kRandomChunk;
    e.jobs = opt.jobs;
    e.first_mismatch = opt.first_mismatch;
    e.keep = opt.show;
    e.records = opt.case_batch > 0;
    e.progress = opt.progress;
    e.progress_seconds = opt.progress_seconds;
    e.noun = "arrays";
    return e;
}

}  // namespace

XcheckReport run_xcheck(const XcheckOptions& opt) {
    std::vector<ArrayCase> corpus;
    if (!opt.corpus.empty()) corpus = load_corpus(opt.corpus);
    if (opt.systemc && opt.rtl) throw std::invalid_argument("the SystemC bench runs the built-in RTL only (no --rtl)");
    if (opt.jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
    if (opt.case_batch % kRandomChunk) throw std::invalid_argument("case_batch must be a multiple of kRandomChunk");
    XcheckReport rep;
    DeclUnit unit(opt, rep);
    Engine<DeclUnit> eng(unit, engine_options(opt));
    DeclUnit::Checker main(opt, &unit.dut());  // the named arrays' checker: the instance under check
    auto named = [&](const ArrayCase& c) { eng.check_named(main, c, unit.record_of(c)); };
    const bool streaming = opt.stream > 0 || !opt.stream_file.empty();
    std::vector<std::string> coverage_parts;  // of the worker threads' instances (--jobs > 1)
    if (opt.systemc) {
        // The SystemC bench: the corpus and the random arrays in one simulation, then accounted one by one.
        std::vector<ArrayCase> arrays = corpus;
        if (opt.only >= 0)
            arrays.push_back(random_case(opt.seed, uint64_t(opt.only)));
        else
            for (uint64_t i = 0; i < opt.random; ++i) arrays.push_back(random_case(opt.seed, i));
        ScBenchResult r = run_sc_bench(arrays, opt.bp, opt.vcd);
        for (size_t i = 0; i < arrays.size(); ++i) {
            ArrayCounts n;
            unit.count(arrays[i], r.model[i], r.rtl[i], n);
            Difference d = difference(r.model[i], r.rtl[i]);
            eng.account(arrays[i], Verdict{std::move(d.text), std::move(d.signature)}, n,
                        DeclSides{std::move(r.model[i]), std::move(r.rtl[i])}, unit.record_of(arrays[i]));
        }
    } else {
        for (const auto& c : corpus) named(c);
        if (streaming) {
            if (!eng.stopped()) coverage_parts = check_streams(opt, unit.dut(), rep, eng.triage());
        } else if (opt.only >= 0) {
            named(random_case(opt.seed, uint64_t(opt.only)));
        } else if (opt.per_array_path) {
            // vpsim bench xcheck's baseline: every array generated into new vectors and checked alone.
            for (uint64_t i = 0; i < opt.random && !eng.stopped(); ++i) named(random_case(opt.seed, i));
        } else {
            // More threads than one: each thread's instance's coverage is a part, summed at the end.
            coverage_parts = check_random_with_parts<Engine<DeclUnit>, DeclUnit::Checker>(eng, opt);
        }
        if (streaming && opt.progress == 1 && opt.only < 0) std::fprintf(stderr, "\r%78s\r", "");
    }
    if (!opt.coverage_file.empty()) write_coverage(opt, unit.dut(), coverage_parts);
    // The engine's totals, with the streams' (check_streams counts into the report itself).
    rep.add(eng.counts());
    rep.mismatches += eng.mismatches();
    std::vector<CaseRecord> cases = std::move(eng.records());
    cases.insert(cases.end(), rep.cases.begin(), rep.cases.end());  // the streams' after the corpus's
    rep.cases = std::move(cases);
    rep.seconds = eng.seconds();
    rep.holes = rep.coverage.holes();
    if (opt.user_bins) {
        const auto uh = rep.user.holes(*opt.user_bins);
        rep.holes.insert(rep.holes.end(), uh.begin(), uh.end());
    }
    rep.groups = eng.triage().groups();
    merge_pin_groups(unit.pin_triage(), rep);
    return rep;
}

}  // namespace vpsim::tb

namespace vpsim::tb {

uint64_t dump_arrays(const XcheckOptions& opt, const std::string& dir) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec) throw OutputError(fmt::format("{}: cannot create the directory ({})", dir, ec.message()));
    std::vector<ArrayCase> arrays;
    if (!opt.corpus.empty()) arrays = load_corpus(opt.corpus);
    AtomicOutput out(dir + "/arrays.txt");
    uint64_t n = 0;
    auto put = [&](const ArrayCase& c) {
        SideResult r = run_model(c.tokens, c.lenient, c.bp_seed, opt.bp, opt.model);
        std::string s = fmt::format("A {} {} {} {} {:016x} {}\n", c.tokens.size(), c.lenient ? 1 : 0, r.events.size(), r.cycles,
                                    c.bp_seed, c.origin == "random" ? fmt::format("random:{}", c.index) : c.origin);
        for (uint32_t t : c.tokens) s += fmt::format("T {:08x}\n", t);
        for (const Event& e : r.events)
            s += fmt::format("E {} {} {:06x} {} {} {:08x} {:08x} {:08x} {:08x}\n", unsigned(e.kind), e.stream, e.value, e.code,
                             e.reg, e.data[0], e.data[1], e.data[2], e.data[3]);
        out.write(s);
        ++n;
    };
    for (const auto& c : arrays) put(c);
    if (opt.only >= 0) {
        put(random_case(opt.seed, uint64_t(opt.only)));
    } else {
        ArrayCase c;
        GenScratch scratch;
        for (uint64_t i = 0; i < opt.random; ++i) {
            random_case(opt.seed, i, c, scratch);
            put(c);
        }
    }
    out.commit();
    std::string corpus;
    for (const auto& p : opt.corpus) corpus += (corpus.empty() ? "" : " ") + p;
    write_file_atomic(dir + "/arrays.info",
                      fmt::format("vpsim xcheck --dump-arrays: {} arrays in arrays.txt (format: docs/dpi.md, \"Exported arrays\")\n"
                                  "corpus: {}\nrandom: {} (seed {})\nCONST_COUNT {} MAX_LENGTH {}\n"
                                  "back-pressure: --out-ready {} --in-valid {} (the cycles column)\n",
                                  n, corpus.empty() ? "(none)" : corpus, opt.only >= 0 ? 1 : opt.random, opt.seed,
                                  opt.model.const_count, opt.model.max_length, exact_number(opt.bp.out_ready),
                                  exact_number(opt.bp.in_valid)));
    return n;
}

}  // namespace vpsim::tb

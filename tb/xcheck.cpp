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

namespace {

// One thread's tools for the random arrays: its RTL instance (made on this thread), the golden
// side and the buffers, all reused from array to array.
struct Checker {
    std::unique_ptr<RtlDut> own;
    RtlDut* dut;
    ModelSide model;
    GenScratch scratch;
    ArrayCase c;
    SideResult exp, act;
    // With `borrow`, that instance (made on this thread) instead of a new one.
    explicit Checker(const XcheckOptions& opt, RtlDut* borrow = nullptr)
        : own(borrow ? nullptr : opt.rtl ? opt.rtl() : builtin_rtl()), dut(borrow ? borrow : own.get()), model(opt.model) {}
};

// What one chunk of random arrays gave: totals, coverage, and every mismatch in order (the
// first few with the array and both sides, for shrinking and the report).
struct ChunkResult {
    struct Seen {
        uint64_t index = 0;
        std::string diff, signature;
        bool lenient = false;
        bool full = false;
        ArrayCase c;
        SideResult exp, act;
    };
    uint64_t first = 0, checked = 0, tokens = 0, events = 0, cycles = 0;
    Coverage coverage;
    UserCoverage user;
    std::vector<Seen> mismatches;
};

// Random arrays [first, last) on `k`, from a reset decoder; stops after the first mismatch
// when opt.first_mismatch.
void check_chunk(Checker& k, const XcheckOptions& opt, uint64_t first, uint64_t last, ChunkResult& out) {
    out.first = first;
    k.dut->reset();
    for (uint64_t i = first; i < last; ++i) {
        random_case(opt.seed, i, k.c, k.scratch);
        k.model.reset();
        drive_array(k.model, k.c.tokens, k.c.lenient, k.c.bp_seed, opt.bp, k.exp);
        k.dut->run_into(k.c.tokens, k.c.lenient, k.c.bp_seed, opt.bp, k.act);
        ++out.checked;
        out.tokens += k.c.tokens.size();
        out.events += k.exp.events.size();
        out.cycles += k.exp.cycles;
        out.coverage.count_tokens(k.c.tokens);
        out.coverage.count_events(0, k.exp.events, k.c.lenient);
        out.coverage.count_events(1, k.act.events, k.c.lenient);
        if (opt.user_bins) out.user.count(*opt.user_bins, k.c.tokens, k.exp.events, k.c.lenient);
        Difference diff = difference(k.exp, k.act);
        if (diff.empty()) continue;
        ChunkResult::Seen m;
        m.index = i;
        m.diff = std::move(diff.text);
        m.signature = std::move(diff.signature);
        m.lenient = k.c.lenient;
        if (out.mismatches.size() < opt.show) {  // the report details the first `show` mismatches overall
            m.full = true;
            m.c = k.c;
            m.exp = k.exp;
            m.act = k.act;
        }
        out.mismatches.push_back(std::move(m));
        if (opt.first_mismatch) break;
    }
}

}  // namespace

namespace {

// JUnit cases (opt.case_batch): one per corpus file, one per case_batch random arrays, in order of
// checking, in rep.cases.
class CaseBook {
public:
    CaseBook(const XcheckOptions& opt, XcheckReport& rep) : opt_(opt), rep_(rep) {}
    // The case an array belongs to (made when first seen); null without case_batch.
    CaseRecord* of(const ArrayCase& c) {
        if (!opt_.case_batch) return nullptr;
        std::string key;
        CaseRecord r;
        if (c.origin == "random") {
            const uint64_t b = c.index / opt_.case_batch;
            const uint64_t first = b * opt_.case_batch;
            const uint64_t last = opt_.only >= 0 ? c.index : std::min(opt_.random, first + opt_.case_batch) - 1;
            r.classname = "xcheck.random";
            r.name = opt_.only >= 0 ? fmt::format("random array {} (seed {})", c.index, opt_.seed)
                                    : fmt::format("random arrays {}-{} (seed {})", first, last, opt_.seed);
            key = "random " + std::to_string(b);
        } else {
            r.classname = "xcheck.corpus";
            r.name = c.origin;
            key = "corpus " + c.origin;
        }
        auto it = index_.find(key);
        if (it == index_.end()) {
            it = index_.emplace(key, rep_.cases.size()).first;
            rep_.cases.push_back(std::move(r));
        }
        return &rep_.cases[it->second];
    }

private:
    const XcheckOptions& opt_;
    XcheckReport& rep_;
    std::map<std::string, size_t> index_;
};

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

// One run_xcheck: the instance under check, the report it fills, the triage and the JUnit cases,
// and the steps — the arrays one by one (corpus, --only, the SystemC bench, the per-array path),
// the random arrays in chunks merged in array order, a mismatch kept (shrunk) or counted.
class XcheckRun {
public:
    XcheckRun(const XcheckOptions& opt, std::chrono::steady_clock::time_point t0)
        : opt_(opt), t0_(t0), last_print_(t0), dut_(opt.rtl ? opt.rtl() : builtin_rtl()), book_(opt, rep_), pins_(opt) {}
    void check_systemc(const std::vector<ArrayCase>& corpus);
    void check_fast(const std::vector<ArrayCase>& corpus);
    XcheckReport finish();

private:
    SideResult model(const std::vector<uint32_t>& t, const ArrayCase& c) const {
        return run_model(t, c.lenient, c.bp_seed, opt_.bp, opt_.model);
    }
    SideResult rtl(const std::vector<uint32_t>& t, const ArrayCase& c) { return dut_->run(t, c.lenient, c.bp_seed, opt_.bp); }
    uint64_t chunk_end(uint64_t k) const { return std::min(opt_.random, (k + 1) * kRandomChunk); }
    void check_one(const ArrayCase& c) { check_results(c, model(c.tokens, c), rtl(c.tokens, c)); }
    void check_results(const ArrayCase& c, const SideResult& exp, const SideResult& act);
    void check_random();
    void merge_chunk(ChunkResult& r);
    void book_chunk(const ChunkResult& r);
    void count_unkept(const ChunkResult::Seen& m);
    void on_mismatch(const ArrayCase& c, const SideResult& exp, const SideResult& act, const Difference& diff);
    void shrink_mismatch(const ArrayCase& c, const Difference& diff, Mismatch& m);
    void case_failure(CaseRecord* cr, const ArrayCase& c, const std::string& d) {
        if (cr->mismatches++ == 0)
            cr->failure = fmt::format("{}: {}\nreplay: {}", describe(c, opt_.seed), d, replay_command(c, opt_));
    }
    void case_seconds(CaseRecord* cr) {
        const auto now = std::chrono::steady_clock::now();
        cr->seconds += std::chrono::duration<double>(now - case_clock_).count();
        case_clock_ = now;
    }
    void progress(uint64_t done);

    const XcheckOptions& opt_;
    const std::chrono::steady_clock::time_point t0_;
    std::chrono::steady_clock::time_point last_print_;
    XcheckReport rep_;
    std::unique_ptr<RtlDut> dut_;
    bool stop_ = false;  // first_mismatch: seen
    CaseBook book_;
    std::chrono::steady_clock::time_point case_clock_ = std::chrono::steady_clock::now();
    Triage triage_;
    PinTriage pins_;
    std::vector<std::string> coverage_parts_;  // of the worker threads' instances (--jobs > 1), merged at the end
};

// A mismatch, in array order: kept for the report (the first `show`, shrunk) or, with
// first_mismatch, the end of the check.
void XcheckRun::on_mismatch(const ArrayCase& c, const SideResult& exp, const SideResult& act, const Difference& diff) {
    ++rep_.mismatches;
    const std::string replay = replay_command(c, opt_);
    triage_.add(diff.signature, describe(c, opt_.seed), diff.text, replay);
    pins_.add(c, replay);
    Mismatch m;
    m.array = c;
    m.expected = exp;
    m.actual = act;
    m.first_difference = diff.text;
    m.signature = diff.signature;
    m.replay = replay;
    if (opt_.first_mismatch) {
        stop_ = true;
        rep_.failures.push_back(std::move(m));
        return;
    }
    if (rep_.failures.size() >= opt_.show) return;
    shrink_mismatch(c, diff, m);
    report_mismatch(m, opt_, int(rep_.failures.size()));
    if (rep_.failures.empty() && !opt_.wave_dir.empty() && opt_.wave_rtl) write_failure_wave(opt_, c, m);
    rep_.failures.push_back(std::move(m));
}

// The shrunk array of a kept mismatch, its difference, and where the pins first part on it.
void XcheckRun::shrink_mismatch(const ArrayCase& c, const Difference& diff, Mismatch& m) {
    dut_->reset();  // shrinking starts from a reset decoder, whatever ran before (any --jobs)
    // The shrunk array must show the same bug: the same signature of the first difference.
    m.shrunk = shrink(c.tokens, [&](const std::vector<uint32_t>& t) {
        return difference(model(t, c), rtl(t, c)).signature == diff.signature;
    });
    m.shrunk_difference = compare(model(m.shrunk, c), rtl(m.shrunk, c));
    std::vector<CycleSample> tm, tr;
    run_model(m.shrunk, c.lenient, c.bp_seed, opt_.bp, opt_.model, &tm);
    SideResult rr;
    rr.trace = &tr;
    dut_->run_into(m.shrunk, c.lenient, c.bp_seed, opt_.bp, rr);
    const std::string d = first_divergence(tm, tr);
    if (!d.empty()) m.divergence = "on the shrunk array: " + d;
}

// One array checked one by one (corpus, --only, the SystemC bench, the per-array path).
void XcheckRun::check_results(const ArrayCase& c, const SideResult& exp, const SideResult& act) {
    const Difference diff = difference(exp, act);
    if (CaseRecord* cr = book_.of(c)) {
        case_seconds(cr);
        ++cr->arrays;
        if (!diff.empty()) case_failure(cr, c, diff.text);
    }
    ++rep_.arrays;
    rep_.tokens += c.tokens.size();
    rep_.events += exp.events.size();
    rep_.cycles += exp.cycles;
    rep_.coverage.count_tokens(c.tokens);
    rep_.coverage.count_events(0, exp.events, c.lenient);
    rep_.coverage.count_events(1, act.events, c.lenient);
    if (opt_.user_bins) rep_.user.count(*opt_.user_bins, c.tokens, exp.events, c.lenient);
    if (!diff.empty()) on_mismatch(c, exp, act, diff);
}

// A chunk's JUnit case (case_batch): its arrays, seconds and mismatches.
void XcheckRun::book_chunk(const ChunkResult& r) {
    ArrayCase probe;
    probe.origin = "random";
    probe.index = r.first;
    CaseRecord* cr = book_.of(probe);  // a chunk lies inside one batch (case_batch % kRandomChunk == 0)
    case_seconds(cr);
    cr->arrays += r.checked;
    for (const auto& m : r.mismatches) {
        // case_failure describes only the batch's first mismatch: its mode is needed then.
        if (cr->mismatches == 0 && !m.full) {
            probe.index = m.index;
            probe.lenient = m.lenient;
        }
        case_failure(cr, m.full ? m.c : probe, m.diff);
    }
}

// A mismatch beyond the first `show` of its chunk: counted and grouped.
void XcheckRun::count_unkept(const ChunkResult::Seen& m) {
    ArrayCase probe;
    probe.origin = "random";
    probe.index = m.index;
    probe.lenient = m.lenient;
    ++rep_.mismatches;
    const std::string replay = replay_command(probe, opt_);
    triage_.add(m.signature, describe(probe, opt_.seed), m.diff, replay);
    if (!opt_.first_mismatch) pins_.add(random_case(opt_.seed, m.index), replay);
    if (opt_.first_mismatch) stop_ = true;
}

// A chunk of random arrays, merged in array order.
void XcheckRun::merge_chunk(ChunkResult& r) {
    if (opt_.case_batch && r.checked) book_chunk(r);
    rep_.arrays += r.checked;
    rep_.tokens += r.tokens;
    rep_.events += r.events;
    rep_.cycles += r.cycles;
    rep_.coverage.add(r.coverage);
    rep_.user.add(r.user);
    for (auto& m : r.mismatches) {
        if (stop_) break;
        if (m.full) {
            Difference d;
            d.text = m.diff;
            d.signature = m.signature;
            on_mismatch(m.c, m.exp, m.act, d);
        } else {
            count_unkept(m);
        }
    }
}

void XcheckRun::progress(uint64_t done) {
    if (!opt_.progress) return;
    const auto now = std::chrono::steady_clock::now();
    const double every = opt_.progress == 1 ? 2.0 : opt_.progress_seconds;
    if (std::chrono::duration<double>(now - last_print_).count() < every) return;
    last_print_ = now;
    const double sec = std::chrono::duration<double>(now - t0_).count();
    std::fprintf(stderr, "%sxcheck: %llu / %llu arrays, %llu mismatches, %.0f arrays/s%s", opt_.progress == 1 ? "\r" : "",
                 (unsigned long long)done, (unsigned long long)opt_.random, (unsigned long long)rep_.mismatches,
                 sec > 0 ? double(done) / sec : 0.0, opt_.progress == 1 ? "" : "\n");
    std::fflush(stderr);
}

// The SystemC bench: the corpus and the random arrays in one simulation, then checked one by one.
void XcheckRun::check_systemc(const std::vector<ArrayCase>& corpus) {
    std::vector<ArrayCase> arrays = corpus;
    if (opt_.only >= 0)
        arrays.push_back(random_case(opt_.seed, uint64_t(opt_.only)));
    else
        for (uint64_t i = 0; i < opt_.random; ++i) arrays.push_back(random_case(opt_.seed, i));
    const ScBenchResult r = run_sc_bench(arrays, opt_.bp, opt_.vcd);
    for (size_t i = 0; i < arrays.size(); ++i) check_results(arrays[i], r.model[i], r.rtl[i]);
}

// The fast path: the corpus, then the streams or the random arrays.
void XcheckRun::check_fast(const std::vector<ArrayCase>& corpus) {
    for (const auto& c : corpus)
        if (!stop_) check_one(c);
    const bool streaming = opt_.stream > 0 || !opt_.stream_file.empty();
    if (streaming && !stop_) check_streams(opt_, *dut_, rep_, triage_);
    if (!streaming) check_random();  // (streaming: the random arrays went in streams)
    if (opt_.progress == 1 && opt_.only < 0) std::fprintf(stderr, "\r%78s\r", "");
}

// The random arrays: --only's, one by one (per_array_path), or in chunks on opt.jobs threads.
void XcheckRun::check_random() {
    const uint64_t chunks = (opt_.random + kRandomChunk - 1) / kRandomChunk;
    if (opt_.only >= 0) {
        if (!stop_) check_one(random_case(opt_.seed, uint64_t(opt_.only)));
    } else if (opt_.per_array_path) {
        for (uint64_t i = 0; i < opt_.random && !stop_; ++i) {
            check_one(random_case(opt_.seed, i));
            if ((i & 0x3FFF) == 0) progress(i);
        }
    } else if (!stop_) {  // (stopped: --first-mismatch and the corpus had one)
        // One thread: the corpus's instance (one model, as before chunks). More: each thread its
        // own, whose coverage parts are summed with this one's (write_coverage).
        const int jobs = opt_.jobs;
        std::vector<std::string> parts(size_t(std::max(1, jobs)));
        ChunkWork<Checker, ChunkResult> w;
        w.make = [&](int) {
            return jobs == 1 ? std::make_unique<Checker>(opt_, dut_.get()) : std::make_unique<Checker>(opt_);
        };
        w.check = [&](Checker& k, uint64_t c, ChunkResult& r) { check_chunk(k, opt_, c * kRandomChunk, chunk_end(c), r); };
        w.merge = [&](ChunkResult& r, uint64_t c) {
            merge_chunk(r);
            progress(chunk_end(c));
            return !stop_;
        };
        if (jobs > 1 && !opt_.coverage_file.empty())
            w.finish = [&](Checker& k, int t) {
                const std::string f = fmt::format("{}.part{}", opt_.coverage_file, t + 1);
                if (!k.dut->write_coverage(f)) throw std::runtime_error(f + ": the RTL was not built with coverage");
                parts[size_t(t)] = f;
            };
        run_chunks(chunks, jobs, w);
        for (const auto& f : parts)
            if (!f.empty()) coverage_parts_.push_back(f);
    }
}

// The coverage file, the seconds, the holes and the groups.
XcheckReport XcheckRun::finish() {
    if (!opt_.coverage_file.empty()) write_coverage(opt_, *dut_, coverage_parts_);
    rep_.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0_).count();
    rep_.holes = rep_.coverage.holes();
    if (opt_.user_bins) {
        const auto uh = rep_.user.holes(*opt_.user_bins);
        rep_.holes.insert(rep_.holes.end(), uh.begin(), uh.end());
    }
    rep_.groups = triage_.groups();
    merge_pin_groups(pins_.triage, rep_);
    return std::move(rep_);
}

}  // namespace

XcheckReport run_xcheck(const XcheckOptions& opt) {
    const auto t0 = std::chrono::steady_clock::now();
    std::vector<ArrayCase> corpus;
    if (!opt.corpus.empty()) corpus = load_corpus(opt.corpus);
    if (opt.systemc && opt.rtl) throw std::invalid_argument("the SystemC bench runs the built-in RTL only (no --rtl)");
    if (opt.jobs < 1) throw std::invalid_argument("--jobs must be at least 1");
    if (opt.case_batch % kRandomChunk) throw std::invalid_argument("case_batch must be a multiple of kRandomChunk");
    XcheckRun run(opt, t0);
    if (opt.systemc)
        run.check_systemc(corpus);
    else
        run.check_fast(corpus);
    return run.finish();
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

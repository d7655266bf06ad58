#include "tb/user_bins.h"

#include "model/common/file_util.h"
#include "model/decl/decl_tokens.h"

#include <fmt/format.h>

#include <cerrno>
#include <algorithm>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace vpsim::tb {

namespace {
bool number(const std::string& s, uint64_t& v) {
    if (s.empty()) return false;
    char* end = nullptr;
    errno = 0;
    v = std::strtoull(s.c_str(), &end, 0);
    return errno == 0 && end && *end == '\0' && s[0] != '-';
}

// "N" or "LO..HI" (inclusive), each at most max; false when malformed or LO > HI.
bool range(const std::string& s, uint64_t max, uint64_t& lo, uint64_t& hi) {
    const size_t dots = s.find("..");
    if (dots == std::string::npos) {
        if (!number(s, lo) || lo > max) return false;
        hi = lo;
        return true;
    }
    return number(s.substr(0, dots), lo) && number(s.substr(dots + 2), hi) && lo <= hi && hi <= max;
}

using Words = std::vector<std::string>;
using Fail = std::runtime_error;

struct Parser {
    std::string file;
    int line = 0;
    UserCoverageSpec spec;

    Fail bad(const std::string& why) const { return Fail(fmt::format("{}:{}: {}", file, line, why)); }
    long find_bin(const std::string& name) const {
        for (size_t i = 0; i < spec.bins.size(); ++i)
            if (spec.bins[i].name == name) return long(i);
        return -1;
    }
    void check_new(const std::string& name) const {
        if (find_bin(name) >= 0) throw bad("bin " + name + " is defined twice");
        for (const auto& c : spec.crosses)
            if (c.name == name) throw bad("cross " + name + " is defined twice");
        for (const auto& s : spec.seqs)
            if (s.name == name) throw bad("seq " + name + " is defined twice");
    }
    // The bin names t[2..end) (stopping at the first word `stop` accepts), each defined before.
    std::vector<size_t> bin_list(const Words& t, size_t& i, const std::string& what, bool (*stop)(const std::string&)) const {
        std::vector<size_t> bins;
        for (; i < t.size() && !stop(t[i]); ++i) {
            const long b = find_bin(t[i]);
            if (b < 0) throw bad(what + ": no bin " + t[i] + " defined before it");
            bins.push_back(size_t(b));
        }
        return bins;
    }
    void event_bins_only(const std::vector<size_t>& bins, const std::string& what, const std::string& why) const {
        for (size_t b : bins)
            if (!spec.bins[b].on_event) throw bad(what + ": " + why + " needs event bins, " + spec.bins[b].name + " is a token bin");
    }
    // Whether the bins are fetch bins; throws when some are and some are not.
    bool same_family(const std::vector<size_t>& bins, const std::string& what, const std::string& a) const {
        const bool f = spec.bins[bins[0]].on_fetch;
        for (size_t b : bins)
            if (spec.bins[b].on_fetch != f)
                throw bad(what + ": bins " + spec.bins[bins[0]].name + " and " + spec.bins[b].name + " are one a fetch bin and " +
                          "one not; " + a + " is of fetch bins or of token and event bins");
        return f;
    }
    void cross(const Words& t);
    void seq(const Words& t);
    void bin(const Words& t);
    void event_fields(const Words& t, size_t& i, UserBin& b) const;
    void fetch_fields(const Words& t, size_t& i, UserBin& b) const;
};

void Parser::cross(const Words& t) {
    UserCross c;
    c.name = t[1];
    const std::string what = "cross " + c.name;
    size_t i = 2;
    c.bins = bin_list(t, i, what, [](const std::string& w) { return w == "within"; });
    if (c.bins.size() < 2) throw bad(what + ": a cross needs two bins or more");
    c.on_fetch = same_family(c.bins, what, "a cross");
    if (i < t.size()) {  // within N
        uint64_t n = 0;
        if (i + 2 != t.size() || !number(t[i + 1], n) || n < 1 || n > 1000000)
            throw bad(what + ": expected `within N` at the end, N events (1 .. 1000000)");
        if (!c.on_fetch) event_bins_only(c.bins, what, "`within`");
        c.within = size_t(n);
    }
    spec.crosses.push_back(std::move(c));
}

void Parser::seq(const Words& t) {
    UserSeq s;
    s.name = t[1];
    const std::string what = "seq " + s.name;
    size_t i = 2;
    s.bins = bin_list(t, i, what, [](const std::string& w) { return w.rfind("same=", 0) == 0; });
    if (s.bins.size() < 2) throw bad(what + ": a sequence needs two bins or more");
    s.on_fetch = same_family(s.bins, what, "a sequence");
    s.on_event = spec.bins[s.bins[0]].on_event;
    for (size_t b : s.bins)
        if (!s.on_fetch && spec.bins[b].on_event != s.on_event)
            throw bad(what + ": bins " + spec.bins[s.bins[0]].name + " and " + spec.bins[b].name +
                      " are one a token and one an event bin; a sequence is of tokens or of events");
    if (i < t.size()) {
        const std::string f = t[i].substr(5);
        if (s.on_fetch) {
            if (f == "type") s.same = UserField::Type;
            else if (f == "stream") s.same = UserField::Stream;
            else if (f == "offset") s.same = UserField::Offset;
            else if (f == "reg") s.same = UserField::Reg;
            else if (f == "index") s.same = UserField::Index;
            else throw bad(what + ": same=" + f + ": unknown field of fetch bins (type, stream, offset, reg, index)");
        } else {
            if (f == "stream") s.same = UserField::Stream;
            else if (f == "value") s.same = UserField::Value;
            else if (f == "code") s.same = UserField::Code;
            else if (f == "reg") s.same = UserField::Reg;
            else throw bad(what + ": same=" + f + ": unknown field (stream, value, code, reg)");
            event_bins_only(s.bins, what, "`same=`");
        }
        if (++i < t.size()) throw bad(what + ": unexpected `" + t[i] + "` after same=" + f);
    }
    spec.seqs.push_back(std::move(s));
}

void Parser::event_fields(const Words& t, size_t& i, UserBin& b) const {
    for (; i < t.size() && t[i].find('=') != std::string::npos; ++i) {
        const std::string f = t[i].substr(0, t[i].find('=')), v = t[i].substr(t[i].find('=') + 1);
        uint64_t lo = 0, hi = 0;
        if (!range(v, 0xFFFFFFull, lo, hi))
            throw bad("bin " + b.name + ": " + t[i] + ": not a number or a range LO..HI with LO <= HI (0 .. 2^24-1)");
        const UserRange r{int64_t(lo), int64_t(hi)};
        if (f == "stream") b.stream = r;
        else if (f == "value") b.event_value = r;
        else if (f == "code") b.code = r;
        else if (f == "reg") b.reg = r;
        else throw bad("bin " + b.name + ": unknown field " + f + " (stream, value, code, reg)");
    }
}

void Parser::fetch_fields(const Words& t, size_t& i, UserBin& b) const {
    for (; i < t.size() && t[i].find('=') != std::string::npos; ++i) {
        const std::string f = t[i].substr(0, t[i].find('=')), v = t[i].substr(t[i].find('=') + 1);
        UserRange* r = nullptr;
        uint64_t max = 0xFFFFFFFFull;
        if (f == "type") r = &b.type, max = 7;
        else if (f == "stream") r = &b.stream, max = 15;
        else if (f == "offset") r = &b.offset;
        else if (f == "reg") r = &b.reg, max = 16;
        else if (f == "index") r = &b.index;
        else if (f == "flush") r = &b.flush, max = 1;
        else throw bad("bin " + b.name + ": unknown field " + f + " of a fetch bin (type, stream, offset, reg, index, flush)");
        uint64_t lo = 0, hi = 0;
        if (!range(v, max, lo, hi))
            throw bad(fmt::format("bin {}: {}: not a number or a range LO..HI with LO <= HI (0 .. {})", b.name, t[i], max));
        *r = UserRange{int64_t(lo), int64_t(hi)};
    }
}

void Parser::bin(const Words& t) {
    UserBin b;
    b.name = t[1];
    b.line = line;
    size_t i = 3;
    if (t[2] == "token") {
        uint64_t m = 0, v = 0, h = 0;
        if (t.size() < 5 || !number(t[3], m) || m > 0xFFFFFFFFull || !range(t[4], 0xFFFFFFFFull, v, h))
            throw bad("bin " + b.name + " token: expected MASK VALUE or MASK LO..HI, 32-bit numbers (LO <= HI)");
        if ((v & ~m) != 0 || (h & ~m) != 0) throw bad("bin " + b.name + ": VALUE has bits outside MASK, it can never match");
        b.mask = uint32_t(m);
        b.value = uint32_t(v);
        b.value_hi = uint32_t(h);
        i = 5;
    } else if (t[2] == "event") {
        b.on_event = true;
        if (t.size() < 4) throw bad("bin " + b.name + " event: expected KIND");
        int k = -1;
        for (unsigned e = 0; e < decl::kNumEventKinds; ++e)
            if (t[3] == decl::event_kind_name(decl::EventKind(e))) k = int(e);
        if (k < 0) throw bad("bin " + b.name + ": unknown event kind " + t[3] + " (STREAM ELEMENT SKIP TESS CONST EXT END ERROR)");
        b.kind = k;
        i = 4;
        event_fields(t, i, b);
    } else if (t[2] == "fetch") {
        b.on_fetch = true;
        fetch_fields(t, i, b);
    } else {
        throw bad("bin " + b.name + ": expected `token`, `event` or `fetch`, got `" + t[2] + "`");
    }
    if (i < t.size() && b.on_fetch) throw bad("bin " + b.name + ": unexpected `" + t[i] + "` (a fetch bin's fields are NAME=VALUE)");
    if (i < t.size()) {
        if (t[i] == "strict") b.mode = 1;
        else if (t[i] == "lenient") b.mode = 2;
        else throw bad("bin " + b.name + ": unexpected `" + t[i] + "` (a mode is `strict` or `lenient`)");
        ++i;
    }
    if (i < t.size()) throw bad("bin " + b.name + ": unexpected `" + t[i] + "`");
    spec.bins.push_back(std::move(b));
}

bool event_matches(const UserBin& u, const decl::Event& e) {
    return int(e.kind) == u.kind && u.stream.has(e.stream) && u.code.has(e.code) && u.reg.has(e.reg) &&
           u.event_value.has(int64_t(e.value));
}

bool fetch_matches(const UserBin& u, const FetchEvent& e) {
    return u.type.has(e.type) && u.stream.has(e.stream) && u.offset.has(e.offset) && u.reg.has(e.reg) &&
           u.index.has(e.index) && u.flush.has(e.flush ? 1 : 0);
}

int64_t fetch_field(const FetchEvent& e, UserField f) {
    switch (f) {
    case UserField::Type: return e.type;
    case UserField::Stream: return e.stream;
    case UserField::Offset: return e.offset;
    case UserField::Reg: return e.reg;
    case UserField::Index: return e.index;
    default: break;
    }
    return 0;
}

int64_t field(const decl::Event& e, UserField f) {
    switch (f) {
    case UserField::Stream: return e.stream;
    case UserField::Value: return int64_t(e.value);
    case UserField::Code: return e.code;
    case UserField::Reg: return e.reg;
    default: break;
    }
    return 0;
}

// The token positions of an array (payloads skipped).
std::vector<uint32_t> token_positions(const std::vector<uint32_t>& tokens) {
    std::vector<uint32_t> p;
    for (size_t i = 0; i < tokens.size(); ++i) {
        const uint32_t t = tokens[i];
        p.push_back(t);
        if (decl::token_type(t) == decl::TokenType::ConstMem)
            i += 4 * ((t & decl::kConstCountMask) >> decl::kConstCountShift);
        else if (decl::token_type(t) == decl::TokenType::Ext)
            i += (t & decl::kExtCountMask) >> decl::kExtCountShift;
    }
    return p;
}

bool token_matches(const UserBin& u, uint32_t t) {
    const uint32_t m = t & u.mask;
    return m >= u.value && m <= u.value_hi;
}

// Whether some N consecutive events hold an event of every bin of the cross.
bool hit_within(const UserCoverageSpec& spec, const UserCross& c, const std::vector<decl::Event>& events) {
    const size_t n = events.size();
    for (size_t start = 0; start < n; ++start) {
        const size_t end = std::min(n, start + c.within);
        bool all = true;
        for (size_t b : c.bins) {
            bool found = false;
            for (size_t e = start; e < end && !found; ++e) found = event_matches(spec.bins[b], events[e]);
            all = all && found;
            if (!all) break;
        }
        if (all) return true;
        if (end == n) break;  // the later windows are the tail of this one
    }
    return false;
}

// The positions of an array where the sequence starts (adjacent tokens or events matching its bins).
uint64_t seq_hits(const UserCoverageSpec& spec, const UserSeq& s, const std::vector<uint32_t>& positions,
                  const std::vector<decl::Event>& events) {
    const size_t len = s.bins.size(), n = s.on_event ? events.size() : positions.size();
    uint64_t c = 0;
    for (size_t start = 0; start + len <= n; ++start) {
        bool ok = true;
        for (size_t k = 0; k < len && ok; ++k) {
            const UserBin& u = spec.bins[s.bins[k]];
            ok = s.on_event ? event_matches(u, events[start + k]) : token_matches(u, positions[start + k]);
            if (ok && s.same != UserField::None)
                ok = field(events[start + k], s.same) == field(events[start], s.same);
        }
        c += ok ? 1 : 0;
    }
    return c;
}
}  // namespace

UserCoverageSpec load_user_bins(const std::string& file) {
    std::string text, why;
    if (!read_input_file(file, text, why)) throw Fail(fmt::format("{}: the bins file: {}", file, why));
    std::istringstream in(text);
    Parser p;
    p.file = file;
    p.spec.file = file;
    for (std::string line; std::getline(in, line);) {
        ++p.line;
        if (const size_t h = line.find('#'); h != std::string::npos) line.resize(h);
        std::istringstream w(line);
        Words t;
        for (std::string x; w >> x;) t.push_back(x);
        if (t.empty()) continue;
        if (t[0] != "bin" && t[0] != "cross" && t[0] != "seq")
            throw p.bad("a line starts with `bin`, `cross` or `seq`, got `" + t[0] + "`");
        if (t.size() < 3) throw p.bad("expected `" + t[0] + " NAME ...`");
        p.check_new(t[1]);
        if (t[0] == "cross") p.cross(t);
        else if (t[0] == "seq") p.seq(t);
        else p.bin(t);
    }
    return std::move(p.spec);
}

void UserCoverage::count(const UserCoverageSpec& spec, const std::vector<uint32_t>& tokens,
                         const std::vector<decl::Event>& events, bool lenient) {
    bins.resize(spec.bins.size());
    crosses.resize(spec.crosses.size());
    seqs.resize(spec.seqs.size());
    thread_local std::vector<char> hit, active;
    hit.assign(spec.bins.size(), 0);
    active.assign(spec.bins.size(), 0);
    const std::vector<uint32_t> positions = token_positions(tokens);
    for (size_t b = 0; b < spec.bins.size(); ++b) {
        const UserBin& u = spec.bins[b];
        if (u.on_fetch || (u.mode == 1 && lenient) || (u.mode == 2 && !lenient)) continue;
        active[b] = 1;
        uint64_t c = 0;
        if (!u.on_event) {
            for (uint32_t t : positions) c += token_matches(u, t) ? 1 : 0;
        } else {
            for (const auto& e : events) c += event_matches(u, e) ? 1 : 0;
        }
        bins[b] += c;
        hit[b] = c != 0;
    }
    for (size_t x = 0; x < spec.crosses.size(); ++x) {
        const UserCross& cr = spec.crosses[x];
        if (cr.on_fetch) continue;  // count_fetch
        bool all = true;
        for (size_t b : cr.bins) all = all && hit[b];
        if (all && cr.within) all = hit_within(spec, cr, events);
        crosses[x] += all ? 1 : 0;
    }
    for (size_t s = 0; s < spec.seqs.size(); ++s) {
        if (spec.seqs[s].on_fetch) continue;  // count_fetch
        bool all = true;  // a bin of another mode is never hit in this array, nor its sequences
        for (size_t b : spec.seqs[s].bins) all = all && hit[b] && active[b];
        if (all) seqs[s] += seq_hits(spec, spec.seqs[s], positions, events);
    }
}

namespace {

// Whether some N consecutive fetch events hold one of every bin of the cross.
bool fetch_hit_within(const UserCoverageSpec& spec, const UserCross& c, const std::vector<FetchEvent>& ev) {
    const size_t n = ev.size();
    for (size_t start = 0; start < n; ++start) {
        const size_t end = std::min(n, start + c.within);
        bool all = true;
        for (size_t b = 0; b < c.bins.size() && all; ++b) {
            bool found = false;
            for (size_t e = start; e < end && !found; ++e) found = fetch_matches(spec.bins[c.bins[b]], ev[e]);
            all = found;
        }
        if (all) return true;
        if (end == n) break;
    }
    return false;
}

uint64_t fetch_seq_hits(const UserCoverageSpec& spec, const UserSeq& s, const std::vector<FetchEvent>& ev) {
    const size_t len = s.bins.size();
    uint64_t c = 0;
    for (size_t start = 0; start + len <= ev.size(); ++start) {
        bool ok = true;
        for (size_t k = 0; k < len && ok; ++k) {
            ok = fetch_matches(spec.bins[s.bins[k]], ev[start + k]);
            if (ok && s.same != UserField::None) ok = fetch_field(ev[start + k], s.same) == fetch_field(ev[start], s.same);
        }
        c += ok ? 1 : 0;
    }
    return c;
}

}  // namespace

void UserCoverage::count_fetch(const UserCoverageSpec& spec, const std::vector<FetchEvent>& events) {
    bins.resize(spec.bins.size());
    crosses.resize(spec.crosses.size());
    seqs.resize(spec.seqs.size());
    thread_local std::vector<char> hit;
    hit.assign(spec.bins.size(), 0);
    for (size_t b = 0; b < spec.bins.size(); ++b) {
        if (!spec.bins[b].on_fetch) continue;
        uint64_t c = 0;
        for (const auto& e : events) c += fetch_matches(spec.bins[b], e) ? 1 : 0;
        bins[b] += c;
        hit[b] = c != 0;
    }
    for (size_t x = 0; x < spec.crosses.size(); ++x) {
        const UserCross& cr = spec.crosses[x];
        if (!cr.on_fetch) continue;
        bool all = true;
        for (size_t b : cr.bins) all = all && hit[b];
        if (all && cr.within) all = fetch_hit_within(spec, cr, events);
        crosses[x] += all ? 1 : 0;
    }
    for (size_t s = 0; s < spec.seqs.size(); ++s) {
        if (!spec.seqs[s].on_fetch) continue;
        bool all = true;
        for (size_t b : spec.seqs[s].bins) all = all && hit[b];
        if (all) seqs[s] += fetch_seq_hits(spec, spec.seqs[s], events);
    }
}

std::string user_bins_unit_error(const UserCoverageSpec& spec, bool vertex_fetch) {
    for (const auto& b : spec.bins) {
        if (b.on_fetch && !vertex_fetch)
            return fmt::format("{}:{}: bin {}: a fetch bin counts the vertex fetch's elements; it applies to --unit "
                               "vertex_fetch, not to the declaration decoder",
                               spec.file, b.line, b.name);
        if (b.mode == 1 && vertex_fetch)
            return fmt::format("{}:{}: bin {}: `strict` never matches with --unit vertex_fetch (its declarations are "
                               "decoded lenient)",
                               spec.file, b.line, b.name);
    }
    return "";
}

std::vector<Exclusion> user_exclusions(const UserCoverageSpec& spec, const std::function<std::string(const UserBin&)>& why) {
    std::vector<Exclusion> out;
    std::vector<std::string> reason(spec.bins.size());
    for (size_t b = 0; b < spec.bins.size(); ++b) {
        reason[b] = why(spec.bins[b]);
        if (!reason[b].empty()) out.push_back({"user bin " + spec.bins[b].name, reason[b]});
    }
    auto needs = [&](const std::vector<size_t>& bins) -> std::string {
        for (size_t b : bins)
            if (!reason[b].empty()) return fmt::format("its bin {}: {}", spec.bins[b].name, reason[b]);
        return "";
    };
    for (const auto& c : spec.crosses)
        if (std::string r = needs(c.bins); !r.empty()) out.push_back({"user cross " + c.name, r});
    for (const auto& q : spec.seqs)
        if (std::string r = needs(q.bins); !r.empty()) out.push_back({"user seq " + q.name, r});
    return out;
}

void UserCoverage::add(const UserCoverage& o) {
    if (bins.size() < o.bins.size()) bins.resize(o.bins.size());
    if (crosses.size() < o.crosses.size()) crosses.resize(o.crosses.size());
    if (seqs.size() < o.seqs.size()) seqs.resize(o.seqs.size());
    for (size_t i = 0; i < o.bins.size(); ++i) bins[i] += o.bins[i];
    for (size_t i = 0; i < o.crosses.size(); ++i) crosses[i] += o.crosses[i];
    for (size_t i = 0; i < o.seqs.size(); ++i) seqs[i] += o.seqs[i];
}

std::vector<std::string> UserCoverage::holes(const UserCoverageSpec& spec) const {
    std::vector<std::string> h;
    for (size_t i = 0; i < spec.bins.size(); ++i)
        if (i >= bins.size() || !bins[i]) h.push_back("user bin " + spec.bins[i].name);
    for (size_t i = 0; i < spec.crosses.size(); ++i)
        if (i >= crosses.size() || !crosses[i]) h.push_back("user cross " + spec.crosses[i].name);
    for (size_t i = 0; i < spec.seqs.size(); ++i)
        if (i >= seqs.size() || !seqs[i]) h.push_back("user seq " + spec.seqs[i].name);
    return h;
}

std::string UserCoverage::table(const UserCoverageSpec& spec) const {
    std::string s;
    for (size_t i = 0; i < spec.bins.size(); ++i)
        s += fmt::format("  user bin {:<19} {:>10}   ({})\n", spec.bins[i].name, i < bins.size() ? bins[i] : 0,
                         spec.bins[i].on_fetch ? "fetches" : spec.bins[i].on_event ? "events" : "tokens");
    for (size_t i = 0; i < spec.crosses.size(); ++i) {
        const UserCross& c = spec.crosses[i];
        const std::string unit = c.on_fetch ? (c.within ? fmt::format("cases, within {} fetches", c.within) : "cases")
                                 : c.within ? fmt::format("arrays, within {} events", c.within)
                                            : "arrays";
        s += fmt::format("  user cross {:<17} {:>10}   ({})\n", spec.crosses[i].name, i < crosses.size() ? crosses[i] : 0, unit);
    }
    for (size_t i = 0; i < spec.seqs.size(); ++i)
        s += fmt::format("  user seq {:<19} {:>10}   ({} sequences)\n", spec.seqs[i].name, i < seqs.size() ? seqs[i] : 0,
                         spec.seqs[i].on_fetch ? "fetch" : spec.seqs[i].on_event ? "event" : "token");
    return s;
}

}  // namespace vpsim::tb

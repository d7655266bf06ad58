#include "tb/user_bins.h"

#include "model/common/file_util.h"
#include "model/decl/decl_tokens.h"

#include <fmt/format.h>

#include <cerrno>
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
}  // namespace

UserCoverageSpec load_user_bins(const std::string& file) {
    std::string text, why;
    if (!read_input_file(file, text, why)) throw std::runtime_error(fmt::format("{}: the bins file: {}", file, why));
    std::istringstream in(text);
    UserCoverageSpec spec;
    std::string line;
    int n = 0;
    auto bad = [&](const std::string& why) { return std::runtime_error(fmt::format("{}:{}: {}", file, n, why)); };
    auto find_bin = [&](const std::string& name) -> long {
        for (size_t i = 0; i < spec.bins.size(); ++i)
            if (spec.bins[i].name == name) return long(i);
        return -1;
    };
    while (std::getline(in, line)) {
        ++n;
        if (const size_t h = line.find('#'); h != std::string::npos) line.resize(h);
        std::istringstream w(line);
        std::vector<std::string> t;
        for (std::string x; w >> x;) t.push_back(x);
        if (t.empty()) continue;
        if (t[0] != "bin" && t[0] != "cross") throw bad("a line starts with `bin` or `cross`, got `" + t[0] + "`");
        if (t.size() < 3) throw bad("expected `" + t[0] + " NAME ...`");
        const std::string& name = t[1];
        if (find_bin(name) >= 0) throw bad("bin " + name + " is defined twice");
        for (const auto& c : spec.crosses)
            if (c.name == name) throw bad("cross " + name + " is defined twice");
        if (t[0] == "cross") {
            UserCross c;
            c.name = name;
            for (size_t i = 2; i < t.size(); ++i) {
                const long b = find_bin(t[i]);
                if (b < 0) throw bad("cross " + name + ": no bin " + t[i] + " defined before it");
                c.bins.push_back(size_t(b));
            }
            if (c.bins.size() < 2) throw bad("cross " + name + ": a cross needs two bins or more");
            spec.crosses.push_back(std::move(c));
            continue;
        }
        UserBin b;
        b.name = name;
        size_t i = 3;
        if (t[2] == "token") {
            uint64_t m = 0, v = 0;
            if (t.size() < 5 || !number(t[3], m) || !number(t[4], v) || m > 0xFFFFFFFFull || v > 0xFFFFFFFFull)
                throw bad("bin " + name + " token: expected MASK VALUE, two 32-bit numbers");
            if ((v & ~m) != 0) throw bad("bin " + name + ": VALUE has bits outside MASK, it can never match");
            b.mask = uint32_t(m);
            b.value = uint32_t(v);
            i = 5;
        } else if (t[2] == "event") {
            b.on_event = true;
            if (t.size() < 4) throw bad("bin " + name + " event: expected KIND");
            int k = -1;
            for (unsigned e = 0; e < decl::kNumEventKinds; ++e)
                if (t[3] == decl::event_kind_name(decl::EventKind(e))) k = int(e);
            if (k < 0) throw bad("bin " + name + ": unknown event kind " + t[3] + " (STREAM ELEMENT SKIP TESS CONST EXT END ERROR)");
            b.kind = k;
            i = 4;
            for (; i < t.size() && t[i].find('=') != std::string::npos; ++i) {
                const std::string f = t[i].substr(0, t[i].find('=')), v = t[i].substr(t[i].find('=') + 1);
                uint64_t x = 0;
                if (!number(v, x) || x > 0xFFFFFFull) throw bad("bin " + name + ": " + t[i] + ": not a number (0 .. 2^24-1)");
                if (f == "stream") b.stream = int(x);
                else if (f == "value") b.event_value = int64_t(x);
                else if (f == "code") b.code = int(x);
                else if (f == "reg") b.reg = int(x);
                else throw bad("bin " + name + ": unknown field " + f + " (stream, value, code, reg)");
            }
        } else {
            throw bad("bin " + name + ": expected `token` or `event`, got `" + t[2] + "`");
        }
        if (i < t.size()) {
            if (t[i] == "strict") b.mode = 1;
            else if (t[i] == "lenient") b.mode = 2;
            else throw bad("bin " + name + ": unexpected `" + t[i] + "` (a mode is `strict` or `lenient`)");
            ++i;
        }
        if (i < t.size()) throw bad("bin " + name + ": unexpected `" + t[i] + "`");
        spec.bins.push_back(std::move(b));
    }
    return spec;
}

void UserCoverage::count(const UserCoverageSpec& spec, const std::vector<uint32_t>& tokens,
                         const std::vector<decl::Event>& events, bool lenient) {
    bins.resize(spec.bins.size());
    crosses.resize(spec.crosses.size());
    thread_local std::vector<char> hit;
    hit.assign(spec.bins.size(), 0);
    for (size_t b = 0; b < spec.bins.size(); ++b) {
        const UserBin& u = spec.bins[b];
        if ((u.mode == 1 && lenient) || (u.mode == 2 && !lenient)) continue;
        uint64_t c = 0;
        if (!u.on_event) {
            for (size_t i = 0; i < tokens.size(); ++i) {  // token positions only (payloads skipped)
                const uint32_t t = tokens[i];
                if ((t & u.mask) == u.value) ++c;
                if (decl::token_type(t) == decl::TokenType::ConstMem)
                    i += 4 * ((t & decl::kConstCountMask) >> decl::kConstCountShift);
                else if (decl::token_type(t) == decl::TokenType::Ext)
                    i += (t & decl::kExtCountMask) >> decl::kExtCountShift;
            }
        } else {
            for (const auto& e : events)
                if (int(e.kind) == u.kind && (u.stream < 0 || e.stream == u.stream) && (u.code < 0 || e.code == u.code) &&
                    (u.reg < 0 || e.reg == u.reg) && (u.event_value < 0 || int64_t(e.value) == u.event_value))
                    ++c;
        }
        bins[b] += c;
        hit[b] = c != 0;
    }
    for (size_t x = 0; x < spec.crosses.size(); ++x) {
        bool all = true;
        for (size_t b : spec.crosses[x].bins) all = all && hit[b];
        crosses[x] += all ? 1 : 0;
    }
}

void UserCoverage::add(const UserCoverage& o) {
    if (bins.size() < o.bins.size()) bins.resize(o.bins.size());
    if (crosses.size() < o.crosses.size()) crosses.resize(o.crosses.size());
    for (size_t i = 0; i < o.bins.size(); ++i) bins[i] += o.bins[i];
    for (size_t i = 0; i < o.crosses.size(); ++i) crosses[i] += o.crosses[i];
}

std::vector<std::string> UserCoverage::holes(const UserCoverageSpec& spec) const {
    std::vector<std::string> h;
    for (size_t i = 0; i < spec.bins.size(); ++i)
        if (i >= bins.size() || !bins[i]) h.push_back("user bin " + spec.bins[i].name);
    for (size_t i = 0; i < spec.crosses.size(); ++i)
        if (i >= crosses.size() || !crosses[i]) h.push_back("user cross " + spec.crosses[i].name);
    return h;
}

std::string UserCoverage::table(const UserCoverageSpec& spec) const {
    std::string s;
    for (size_t i = 0; i < spec.bins.size(); ++i)
        s += fmt::format("  user bin {:<19} {:>10}   ({})\n", spec.bins[i].name, i < bins.size() ? bins[i] : 0,
                         spec.bins[i].on_event ? "events" : "tokens");
    for (size_t i = 0; i < spec.crosses.size(); ++i)
        s += fmt::format("  user cross {:<17} {:>10}   (arrays)\n", spec.crosses[i].name, i < crosses.size() ? crosses[i] : 0);
    return s;
}

}  // namespace vpsim::tb

#include "model/cli/formal_trace.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

namespace vpsim::cli::formal {

namespace {

// "##   0:01:28  Status: PASSED" -> 88 seconds; -1 when the line has no time stamp.
double stamp_seconds(const std::string& line) {
    int h = 0, m = 0, s = 0;
    if (std::sscanf(line.c_str(), "## %d:%d:%d", &h, &m, &s) != 3) return -1;
    return h * 3600.0 + m * 60.0 + s;
}

// The property name in "Assert failed in top: NAME" or "... : file:line ($assert$...)" / "(NAME)".
std::string failed_name(const std::string& rest) {
    const size_t open = rest.rfind(" (");
    if (open != std::string::npos && rest.back() == ')') return rest.substr(open + 2, rest.size() - open - 3);
    return rest;
}

}  // namespace

SmtbmcLog parse_smtbmc(const std::string& output) {
    SmtbmcLog log;
    std::string line;
    int step = -1;
    for (size_t i = 0; i <= output.size(); ++i) {
        if (i < output.size() && output[i] != '\n' && output[i] != '\r') {
            line += output[i];
            continue;
        }
        // The solver's progress spinner may precede a line without a line break.
        if (const size_t h = line.find("##   "); h != std::string::npos) line.erase(0, h);
        if (line.rfind("##", 0) == 0) {
            const double t = stamp_seconds(line);
            if (t >= 0) log.seconds = t;
            int k = 0;
            size_t p = line.find("Checking assertions in step ");
            if (p != std::string::npos && std::sscanf(line.c_str() + p + 28, "%d", &k) == 1) step = log.last_step = k;
            p = line.find("Assert failed in ");
            if (p != std::string::npos) {
                const size_t colon = line.find(": ", p);
                if (colon != std::string::npos) {
                    log.failed.emplace_back(failed_name(line.substr(colon + 2)), step);
                    log.failed_seconds.push_back(log.seconds);
                }
            }
            p = line.find("Status: ");
            if (p != std::string::npos) log.status = line.substr(p + 8);
        }
        line.clear();
    }
    return log;
}

std::vector<std::string> smt2_properties(const std::string& text) {
    std::vector<std::string> names;
    std::istringstream in(text);
    std::string line;
    const std::string tag = "; yosys-smt2-assert ";
    while (std::getline(in, line)) {
        if (line.rfind(tag, 0) != 0) continue;
        std::istringstream f(line.substr(tag.size()));
        int id = 0;
        std::string name;
        if (f >> id >> name) names.push_back(failed_name(name));
    }
    return names;
}

Trace read_vcd(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw std::runtime_error(fmt::format("{}: cannot read the counterexample VCD", path));
    Trace t;
    std::map<std::string, std::string> id_name;  // top-scope signals only
    std::map<std::string, std::string> cur;
    std::string step_id;
    int depth = 0, step = -1, lineno = 0;
    std::string line;
    auto commit = [&]() {
        if (step < 0) return;
        if (t.steps.size() <= size_t(step)) t.steps.resize(size_t(step) + 1);
        t.steps[size_t(step)] = cur;
    };
    while (std::getline(in, line)) {
        ++lineno;
        std::istringstream w(line);
        std::string a, b, c, id, name;
        if (!(w >> a)) continue;
        if (a == "$scope") ++depth;
        else if (a == "$upscope") --depth;
        else if (a == "$var") {
            if (!(w >> b >> c >> id >> name)) throw std::runtime_error(fmt::format("{}:{}: malformed $var", path, lineno));
            if (name == "smt_step") step_id = id;
            else if (depth == 1) id_name[id] = name;
        } else if (a[0] == '#') {
            commit();
        } else if (a[0] == 'b' && (w >> id)) {
            if (id == step_id) step = int(std::stol(a.substr(1), nullptr, 2));
            else if (id_name.count(id)) cur[id_name[id]] = a.substr(1);
        } else if (a.size() >= 2 && (a[0] == '0' || a[0] == '1' || a[0] == 'x' || a[0] == 'z')) {
            if (id_name.count(a.substr(1))) cur[id_name[a.substr(1)]] = a.substr(0, 1);
        }
    }
    commit();
    if (t.steps.empty()) throw std::runtime_error(fmt::format("{}: no steps in the counterexample VCD", path));
    return t;
}

namespace {

bool bit(const std::map<std::string, std::string>& s, const std::string& name) {
    auto it = s.find(name);
    return it != s.end() && it->second == "1";
}

}  // namespace

std::vector<TokenArray> decoder_arrays(const Trace& t, int last_step, bool offer_next) {
    std::vector<TokenArray> arrays;
    TokenArray open;
    for (int k = 0; k <= last_step && size_t(k) < t.steps.size(); ++k) {
        const auto& s = t.steps[size_t(k)];
        if (bit(s, "rst")) {
            arrays.clear();
            open = TokenArray{};
            continue;
        }
        if (!bit(s, "accept")) continue;
        auto it = s.find("in_token");
        const std::string v = it == s.end() ? "0" : it->second;
        open.tokens.push_back(uint32_t(std::stoul(v.find_first_not_of("01") == std::string::npos ? v : "0", nullptr, 2)));
        open.lenient = open.lenient || bit(s, "lenient");
        if (bit(s, "in_last")) {
            open.closed = true;
            arrays.push_back(open);
            open = TokenArray{};
        }
    }
    // A token offered and refused just before the failure is what a stall property saw: it goes
    // in too (the next token of the open array).
    for (int k = std::max(0, last_step - 1); k <= last_step && size_t(k) < t.steps.size(); ++k) {
        const auto& s = t.steps[size_t(k)];
        if (bit(s, "rst") || !bit(s, "in_valid") || bit(s, "accept")) continue;
        auto it = s.find("in_token");
        if (it == s.end() || it->second.find_first_not_of("01") != std::string::npos) break;
        open.tokens.push_back(uint32_t(std::stoul(it->second, nullptr, 2)));
        open.lenient = open.lenient || bit(s, "lenient");
        offer_next = false;
        break;
    }
    // A handshake property can fail with no token offered (in_ready is wrong on its own): a NOP
    // after the open array makes the replay offer one in that cycle.
    if (offer_next && !open.tokens.empty()) open.tokens.push_back(0);
    if (!open.tokens.empty()) arrays.push_back(open);
    return arrays;
}

}  // namespace vpsim::cli::formal

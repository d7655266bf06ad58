#include "model/sc/topology.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/common/printable.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>
#include <unordered_map>

namespace vpsim::sc {

const char* default_topology_json();  // topology_data.cpp, generated from model/sc/topology.json

const std::string& default_topology_text() {
    static const std::string t = default_topology_json();
    return t;
}

const Topology& default_topology() {
    static const Topology t = parse_topology(default_topology_text(), "model/sc/topology.json (built in)");
    return t;
}

namespace {

// The latency-0 cycle among the units not yet ordered (every one of them waits on a latency-0
// link from another): walk those links backwards from one of them until a unit repeats; the
// walk from there is the cycle. `zero_in[x]`: the latency-0 links into unit x.
[[noreturn]] void refuse_cycle(const std::vector<std::vector<const LinkSpec*>>& zero_in,
                               const std::vector<bool>& done,
                               const std::unordered_map<const LinkSpec*, size_t>& link_from) {
    const size_t n = done.size();
    std::vector<const LinkSpec*> walk;
    std::vector<size_t> seen_at(n, SIZE_MAX);
    size_t x = 0;
    while (done[x]) ++x;
    while (seen_at[x] == SIZE_MAX) {
        seen_at[x] = walk.size();
        for (const LinkSpec* l : zero_in[x]) {
            const size_t f = link_from.at(l);
            if (!done[f]) {
                walk.push_back(l);
                x = f;
                break;
            }
        }
    }
    std::vector<const LinkSpec*> loop(walk.begin() + long(seen_at[x]), walk.end());
    std::reverse(loop.begin(), loop.end());
    std::string cycle;
    for (const LinkSpec* l : loop) cycle += (cycle.empty() ? "" : ", ") + l->name;
    const LinkSpec* first = loop.empty() ? nullptr : loop.front();
    throw TopologyError(located(first ? first->at : Located{}, "latency",
                                fmt::format("latency-0 links form a cycle the dispatcher cannot order ({}): "
                                            "a same-cycle item must go to a unit stepped later in the cycle",
                                            cycle)));
}

}  // namespace

std::vector<std::string> step_order(const Topology& t, const UnitRegistry& r, const ParamSet& p) {
    // The stepped units, listed order; "X before Y" edges: hard ones from latency-0 links
    // (producer first), soft ones from the others (consumer first).
    std::vector<std::string> units;
    for (const UnitSpec& u : t.units) {
        const UnitType* ty = r.find(u.type);
        if (!ty)
            throw TopologyError(located(u.at, "type", fmt::format("unknown unit type {}; valid: {}", printable(u.type, 60),
                                                                  r.names())));
        if (ty->stepped) units.push_back(u.name);
    }
    const size_t n = units.size();
    std::unordered_map<std::string, size_t> index_of;
    for (size_t i = 0; i < n; ++i) index_of.emplace(units[i], i);
    auto index = [&](const std::string& port) -> size_t {
        const auto it = index_of.find(port.substr(0, port.find('.')));
        return it == index_of.end() ? n : it->second;
    };
    std::vector<std::vector<size_t>> hard(n), soft(n);  // [x]: the units x must be stepped before
    std::vector<size_t> hard_in(n, 0), soft_in(n, 0);
    std::vector<std::vector<const LinkSpec*>> zero_in(n);
    std::unordered_map<const LinkSpec*, size_t> zero_from;
    for (const LinkSpec& l : t.links) {
        const size_t a = index(l.from), b = index(l.to);
        if (a >= n || b >= n) continue;  // the bind step names these
        uint64_t latency = 0;
        try {
            latency = l.latency.resolve(p);
        } catch (const ParamError& e) {
            throw TopologyError(located(l.at, "latency", e.what()));
        }
        if (a == b) {
            // A unit feeding itself: through a latency-0 link it would have to be stepped both
            // before and after itself in the same cycle.
            if (latency == 0)
                throw TopologyError(located(l.at, "latency",
                                            fmt::format("latency-0 links form a cycle the dispatcher cannot order ({}: "
                                                        "from unit {} to itself): a same-cycle item must go to a unit "
                                                        "stepped later in the cycle",
                                                        l.name, units[a])));
            continue;
        }
        if (latency == 0) {
            hard[a].push_back(b), ++hard_in[b];
            zero_in[b].push_back(&l);
            zero_from.emplace(&l, a);
        } else {
            soft[b].push_back(a), ++soft_in[a];
        }
    }
    // Kahn's order: of the units free of hard constraints, one free of soft ones too if there
    // is one (a loop of latency >= 1 links is broken where it must be), the one listed last.
    // `free_hard`: the units left with no hard constraint; `free_both`: those with no soft one
    // either (ordered sets: the last listed is the largest index).
    std::vector<bool> done(n, false);
    std::set<size_t> free_hard, free_both;
    for (size_t i = 0; i < n; ++i)
        if (hard_in[i] == 0) {
            free_hard.insert(i);
            if (soft_in[i] == 0) free_both.insert(i);
        }
    std::vector<std::string> order;
    for (size_t k = 0; k < n; ++k) {
        if (free_hard.empty()) refuse_cycle(zero_in, done, zero_from);
        const size_t pick = free_both.empty() ? *free_hard.rbegin() : *free_both.rbegin();
        free_hard.erase(pick);
        free_both.erase(pick);
        done[pick] = true;
        order.push_back(units[pick]);
        for (size_t b : hard[pick])
            if (--hard_in[b] == 0 && !done[b]) {
                free_hard.insert(b);
                if (soft_in[b] == 0) free_both.insert(b);
            }
        for (size_t b : soft[pick])
            if (--soft_in[b] == 0 && hard_in[b] == 0 && !done[b]) free_both.insert(b);
    }
    return order;
}

namespace {

// Free text from the file (a channel's "carries", a side's ends and "what") as the table and the
// graph show it: control bytes and bytes outside ASCII as \xNN (docs/limits.md); in DOT, inside
// a quoted string, with its quotes and backslashes escaped.
std::string text_of(const std::string& s) { return printable(s, 400); }
std::string dot_string(const std::string& s) {
    std::string out;
    for (char c : printable(s, 400)) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

}  // namespace

std::string topology_text(const Topology& t, const ParamSet& p, const UnitRegistry& r) {
    std::string out = fmt::format("topology: {}\n\n", t.source);
    out += fmt::format("{:<20} {:<16} {}\n", "unit", "type", "what");
    for (const UnitSpec& u : t.units) {
        const UnitType* ty = r.find(u.type);
        out += fmt::format("{:<20} {:<16} {}{}\n", u.name, text_of(u.type), ty ? ty->what : "(unknown type)",
                           u.memory.empty() ? "" : "; memory port: " + text_of(u.memory));
    }
    out += "\n";
    out += fmt::format("{:<30} {:<29} {:<32} {:>8} {:>7} {:>9}  {}\n", "channel", "from", "to", "capacity", "latency",
                       "bandwidth", "carries");
    auto shown = [&](const Amount& a) { return a.key.empty() ? std::to_string(a.value) : fmt::format("{}", p.get_uint(a.key)); };
    for (const LinkSpec& l : t.links)
        out += fmt::format("{:<30} {:<29} {:<32} {:>8} {:>7} {:>9}  {}\n", l.name, text_of(l.from), text_of(l.to),
                           shown(l.capacity), shown(l.latency), shown(l.bandwidth), text_of(l.carries));
    if (!t.sides.empty()) {
        out += "\nnot channels:\n";
        for (const SideSpec& v : t.sides)
            out += fmt::format("  {} -> {}: {}\n", text_of(v.from), text_of(v.to), text_of(v.what));
    }
    out += "\nparameters behind the amounts (vpsim params; --set changes them):\n";
    std::vector<std::string> keys;
    for (const LinkSpec& l : t.links)
        for (const Amount* a : {&l.capacity, &l.latency, &l.bandwidth})
            if (!a->key.empty() && std::find(keys.begin(), keys.end(), a->key) == keys.end()) keys.push_back(a->key);
    for (const std::string& k : keys) out += "  " + k + "\n";
    out += "\nstep order (downstream first): ";
    const auto order = step_order(t, r, p);
    for (size_t i = 0; i < order.size(); ++i) out += (i ? ", " : "") + order[i];
    return out + "\n";
}

std::string topology_dot(const Topology& t, const ParamSet& p) {
    std::string out =
        "digraph vpsim {\n  rankdir=LR;\n  node [shape=box, style=rounded, fontname=\"Helvetica\"];\n"
        "  edge [fontname=\"Helvetica\", fontsize=9];\n";
    auto unit = [](const std::string& path) { return path.substr(0, path.find('.')); };
    for (const LinkSpec& l : t.links)
        out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\\ncap {} lat {} bw {}\"{}];\n", dot_string(unit(l.from)),
                           dot_string(unit(l.to)),
                           l.name, l.capacity.resolve(p), l.latency.resolve(p), l.bandwidth.resolve(p),
                           l.latency.resolve(p) == 0 ? ", style=dashed" : "");
    for (const SideSpec& v : t.sides)
        out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\", style=dotted{}];\n", dot_string(v.from),
                           dot_string(v.to), dot_string(v.what),
                           v.both_ways ? ", dir=both" : "");
    return out + "}\n";
}

}  // namespace vpsim::sc

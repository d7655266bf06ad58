#include "model/sc/topology.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/common/printable.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <set>

namespace vpsim::sc {

const char* default_topology_json();  // topology_data.cpp, generated from model/sc/topology.json

namespace {

// The offset of every value in valid JSON text, by JSON pointer ("/units/3/type"): nlohmann's
// values carry no position, so the text is walked once more.
class Offsets {
public:
    explicit Offsets(const std::string& t) : t_(t) {
        ws();
        value("");
    }
    std::map<std::string, size_t> at;

private:
    void ws() {
        while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
    }
    std::string string() {
        std::string s;
        ++i_;  // "
        while (i_ < t_.size() && t_[i_] != '"') {
            if (t_[i_] == '\\') ++i_;
            if (i_ < t_.size()) s += t_[i_++];
        }
        ++i_;
        return s;
    }
    static std::string escape(const std::string& k) {
        std::string e;
        for (char c : k) e += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
        return e;
    }
    void value(const std::string& ptr) {
        at[ptr] = i_;
        if (i_ >= t_.size()) return;
        if (t_[i_] == '{') {
            ++i_;
            ws();
            while (i_ < t_.size() && t_[i_] != '}') {
                const std::string key = string();
                ws();
                ++i_;  // :
                ws();
                value(ptr + "/" + escape(key));
                ws();
                if (i_ < t_.size() && t_[i_] == ',') ++i_, ws();
            }
            ++i_;
        } else if (t_[i_] == '[') {
            ++i_;
            ws();
            for (size_t n = 0; i_ < t_.size() && t_[i_] != ']'; ++n) {
                value(ptr + "/" + std::to_string(n));
                ws();
                if (i_ < t_.size() && t_[i_] == ',') ++i_, ws();
            }
            ++i_;
        } else if (t_[i_] == '"') {
            string();
        } else {
            while (i_ < t_.size() && !std::strchr(",]} \n\r\t", t_[i_])) ++i_;
        }
    }
    const std::string& t_;
    size_t i_ = 0;
};

std::string line_column(const std::string& text, size_t offset) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n')
            ++line, col = 1;
        else
            ++col;
    }
    return fmt::format("{}:{}", line, col);
}

class Reader {
public:
    Reader(const std::string& text, const std::string& source) : text_(text), source_(source), offsets_(text) {}

    std::string where(const std::string& ptr) const {
        const auto it = offsets_.at.find(ptr);
        return fmt::format("{}:{}", source_, line_column(text_, it == offsets_.at.end() ? 0 : it->second));
    }
    [[noreturn]] void fail(const std::string& ptr, const std::string& what) const {
        throw TopologyError(fmt::format("{}: {}", where(ptr), what));
    }
    void keys(const nlohmann::json& o, const std::string& ptr, std::initializer_list<const char*> allowed) const {
        if (!o.is_object()) fail(ptr, fmt::format("expected an object, got {}", o.type_name()));
        for (const auto& item : o.items()) {
            const std::string& k = item.key();
            if (std::find_if(allowed.begin(), allowed.end(), [&k](const char* a) { return k == a; }) == allowed.end()) {
                std::string valid;
                for (const char* a : allowed) valid += (valid.empty() ? "" : ", ") + std::string(a);
                fail(ptr + "/" + k, fmt::format("unknown member \"{}\" (valid: {})", printable(k, 60), valid));
            }
        }
    }
    std::string str(const nlohmann::json& o, const std::string& ptr, const char* key, bool required = true) const {
        if (!o.contains(key)) {
            if (required) fail(ptr, fmt::format("missing member \"{}\"", key));
            return "";
        }
        const auto& v = o[key];
        if (!v.is_string() || v.get<std::string>().empty())
            fail(ptr + "/" + key, fmt::format("\"{}\" must be a non-empty string", key));
        return v.get<std::string>();
    }
    Amount amount(const nlohmann::json& o, const std::string& ptr, const char* key) const {
        if (!o.contains(key)) fail(ptr, fmt::format("missing member \"{}\"", key));
        const auto& v = o[key];
        if (v.is_number_unsigned()) {
            if (v.get<uint64_t>() > 0xFFFFFFFFu) fail(ptr + "/" + key, fmt::format("\"{}\" is beyond 2^32 - 1", key));
            return Amount(v.get<uint64_t>());
        }
        if (v.is_string() && v.get<std::string>().find('.') != std::string::npos) return Amount(v.get<std::string>());
        fail(ptr + "/" + key,
             fmt::format("\"{}\" must be a number >= 0 or a parameter key \"unit.param\", got {}", key,
                         printable(v.dump(), 60)));
    }
    Located located(const std::string& ptr, std::initializer_list<const char*> fields) const {
        Located at{{"", where(ptr)}};
        for (const char* f : fields)
            if (offsets_.at.count(ptr + "/" + f)) at[f] = where(ptr + "/" + f);
        return at;
    }

private:
    const std::string& text_;
    const std::string& source_;
    Offsets offsets_;
};

}  // namespace

std::string located(const Located& at, const std::string& field, const std::string& what) {
    auto it = at.find(field);
    if (it == at.end()) it = at.find("");
    return fmt::format("{}: {}", it == at.end() ? "topology" : it->second, what);
}

Topology parse_topology(const std::string& text, const std::string& source) {
    nlohmann::json j;
    try {
        j = parse_json_located(text);
    } catch (const std::exception& e) {
        // "line L, column C: ..." -> "SOURCE:L:C: ..."
        std::string m = e.what();
        unsigned line = 0, col = 0;
        int used = 0;
        if (std::sscanf(m.c_str(), "line %u, column %u: %n", &line, &col, &used) == 2 && used > 0)
            throw TopologyError(fmt::format("{}:{}:{}: {}", source, line, col, m.substr(size_t(used))));
        throw TopologyError(fmt::format("{}: {}", source, m));
    }
    const Reader r(text, source);
    r.keys(j, "", {"schema", "description", "units", "links", "not_channels"});
    if (r.str(j, "", "schema") != "vpsim-topology-1")
        r.fail("/schema", "the schema must be \"vpsim-topology-1\"");
    Topology t;
    t.source = source;
    t.text = text;
    if (!j.contains("units") || !j["units"].is_array() || j["units"].empty())
        r.fail(j.contains("units") ? "/units" : "", "\"units\" must be a non-empty array of {\"name\", \"type\"}");
    std::set<std::string> names;
    for (size_t i = 0; i < j["units"].size(); ++i) {
        const std::string ptr = "/units/" + std::to_string(i);
        const auto& u = j["units"][i];
        r.keys(u, ptr, {"name", "type", "memory"});
        UnitSpec s{r.str(u, ptr, "name"), r.str(u, ptr, "type"), r.str(u, ptr, "memory", false),
                   r.located(ptr, {"name", "type", "memory"})};
        if (s.name.find('.') != std::string::npos) r.fail(ptr + "/name", "a unit name cannot contain '.'");
        if (!names.insert(s.name).second) r.fail(ptr + "/name", fmt::format("unit {} is named twice", s.name));
        t.units.push_back(std::move(s));
    }
    if (!j.contains("links") || !j["links"].is_array()) r.fail(j.contains("links") ? "/links" : "", "\"links\" must be an array");
    std::set<std::string> links;
    for (size_t i = 0; i < j["links"].size(); ++i) {
        const std::string ptr = "/links/" + std::to_string(i);
        const auto& l = j["links"][i];
        r.keys(l, ptr, {"name", "from", "to", "capacity", "latency", "bandwidth", "carries"});
        LinkSpec s{r.str(l, ptr, "name"),
                   r.str(l, ptr, "from"),
                   r.str(l, ptr, "to"),
                   r.amount(l, ptr, "capacity"),
                   r.amount(l, ptr, "latency"),
                   r.amount(l, ptr, "bandwidth"),
                   r.str(l, ptr, "carries", false),
                   r.located(ptr, {"name", "from", "to", "capacity", "latency", "bandwidth"})};
        if (!links.insert(s.name).second) r.fail(ptr + "/name", fmt::format("link {} is named twice", s.name));
        t.links.push_back(std::move(s));
    }
    if (j.contains("not_channels")) {
        if (!j["not_channels"].is_array()) r.fail("/not_channels", "\"not_channels\" must be an array");
        for (size_t i = 0; i < j["not_channels"].size(); ++i) {
            const std::string ptr = "/not_channels/" + std::to_string(i);
            const auto& v = j["not_channels"][i];
            r.keys(v, ptr, {"from", "to", "what", "both_ways"});
            SideSpec s{r.str(v, ptr, "from"), r.str(v, ptr, "to"), r.str(v, ptr, "what"), false};
            if (v.contains("both_ways")) {
                if (!v["both_ways"].is_boolean()) r.fail(ptr + "/both_ways", "\"both_ways\" must be true or false");
                s.both_ways = v["both_ways"].get<bool>();
            }
            t.sides.push_back(std::move(s));
        }
    }
    return t;
}

Topology load_topology_file(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why)) throw TopologyError(fmt::format("{}: {}", path, why));
    return parse_topology(text, path);
}

const std::string& default_topology_text() {
    static const std::string t = default_topology_json();
    return t;
}

const Topology& default_topology() {
    static const Topology t = parse_topology(default_topology_text(), "model/sc/topology.json (built in)");
    return t;
}

std::vector<std::string> step_order(const Topology& t, const UnitRegistry& r, const ParamSet& p) {
    // The stepped units, listed order; "X before Y" edges: hard ones from latency-0 links
    // (producer first), soft ones from the others (consumer first).
    std::vector<std::string> units;
    for (const UnitSpec& u : t.units) {
        const UnitType* ty = r.find(u.type);
        if (!ty) throw TopologyError(located(u.at, "type", fmt::format("unknown unit type {}; valid: {}", u.type, r.names())));
        if (ty->stepped) units.push_back(u.name);
    }
    const size_t n = units.size();
    auto index = [&](const std::string& port) -> size_t {
        const std::string unit = port.substr(0, port.find('.'));
        return size_t(std::find(units.begin(), units.end(), unit) - units.begin());
    };
    std::vector<std::vector<size_t>> hard(n), soft(n);  // [x]: the units x must be stepped before
    std::vector<size_t> hard_in(n, 0), soft_in(n, 0);
    std::vector<const LinkSpec*> zero;
    for (const LinkSpec& l : t.links) {
        const size_t a = index(l.from), b = index(l.to);
        if (a >= n || b >= n || a == b) continue;  // the bind step names these
        uint64_t latency = 0;
        try {
            latency = l.latency.resolve(p);
        } catch (const ParamError& e) {
            throw TopologyError(located(l.at, "latency", e.what()));
        }
        if (latency == 0) {
            hard[a].push_back(b), ++hard_in[b];
            zero.push_back(&l);
        } else {
            soft[b].push_back(a), ++soft_in[a];
        }
    }
    // Kahn's order: of the units free of hard constraints, one free of soft ones too if there
    // is one (a loop of latency >= 1 links is broken where it must be), the one listed last.
    std::vector<bool> done(n, false);
    std::vector<std::string> order;
    for (size_t k = 0; k < n; ++k) {
        size_t pick = n;
        for (size_t pass = 0; pass < 2 && pick == n; ++pass)
            for (size_t i = n; i-- > 0;)
                if (!done[i] && hard_in[i] == 0 && (pass == 1 || soft_in[i] == 0)) {
                    pick = i;
                    break;
                }
        if (pick == n) {
            // Every unit left waits on a latency-0 link from another unit left: walk those links
            // backwards from one of them until a unit repeats; the walk from there is a cycle.
            std::vector<const LinkSpec*> walk;
            std::vector<size_t> seen;
            size_t x = 0;
            while (done[x]) ++x;
            while (std::find(seen.begin(), seen.end(), x) == seen.end()) {
                seen.push_back(x);
                for (const LinkSpec* l : zero)
                    if (index(l->to) == x && !done[index(l->from)]) {
                        walk.push_back(l);
                        x = index(l->from);
                        break;
                    }
            }
            const size_t from = size_t(std::find(seen.begin(), seen.end(), x) - seen.begin());
            std::vector<const LinkSpec*> loop(walk.begin() + long(from), walk.end());
            std::reverse(loop.begin(), loop.end());
            std::string cycle;
            for (const LinkSpec* l : loop) cycle += (cycle.empty() ? "" : ", ") + l->name;
            const LinkSpec* first = loop.empty() ? nullptr : loop.front();
            throw TopologyError(located(first ? first->at : Located{}, "latency",
                                        fmt::format("latency-0 links form a cycle the dispatcher cannot order ({}): "
                                                    "a same-cycle item must go to a unit stepped later in the cycle",
                                                    cycle)));
        }
        done[pick] = true;
        order.push_back(units[pick]);
        for (size_t b : hard[pick]) --hard_in[b];
        for (size_t b : soft[pick]) --soft_in[b];
    }
    return order;
}

std::string topology_text(const Topology& t, const ParamSet& p, const UnitRegistry& r) {
    std::string out = fmt::format("topology: {}\n\n", t.source);
    out += fmt::format("{:<20} {:<16} {}\n", "unit", "type", "what");
    for (const UnitSpec& u : t.units) {
        const UnitType* ty = r.find(u.type);
        out += fmt::format("{:<20} {:<16} {}{}\n", u.name, u.type, ty ? ty->what : "(unknown type)",
                           u.memory.empty() ? "" : "; memory port: " + u.memory);
    }
    out += "\n";
    out += fmt::format("{:<30} {:<29} {:<32} {:>8} {:>7} {:>9}  {}\n", "channel", "from", "to", "capacity", "latency",
                       "bandwidth", "carries");
    auto shown = [&](const Amount& a) { return a.key.empty() ? std::to_string(a.value) : fmt::format("{}", p.get_uint(a.key)); };
    for (const LinkSpec& l : t.links)
        out += fmt::format("{:<30} {:<29} {:<32} {:>8} {:>7} {:>9}  {}\n", l.name, l.from, l.to, shown(l.capacity),
                           shown(l.latency), shown(l.bandwidth), l.carries);
    if (!t.sides.empty()) {
        out += "\nnot channels:\n";
        for (const SideSpec& v : t.sides) out += fmt::format("  {} -> {}: {}\n", v.from, v.to, v.what);
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
        out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\\ncap {} lat {} bw {}\"{}];\n", unit(l.from), unit(l.to),
                           l.name, l.capacity.resolve(p), l.latency.resolve(p), l.bandwidth.resolve(p),
                           l.latency.resolve(p) == 0 ? ", style=dashed" : "");
    for (const SideSpec& v : t.sides)
        out += fmt::format("  \"{}\" -> \"{}\" [label=\"{}\", style=dotted{}];\n", v.from, v.to, v.what,
                           v.both_ways ? ", dir=both" : "");
    return out + "}\n";
}

}  // namespace vpsim::sc

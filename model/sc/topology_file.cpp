#include "model/sc/topology_file.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/common/json_offsets.h"
#include "model/common/printable.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <set>
#include <unordered_map>

namespace vpsim::sc {

namespace {

using vpsim::json_pointer_escape;
using Offsets = vpsim::JsonOffsets;
using Lines = vpsim::TextLines;

// Values deeper than this have no position of their own (a topology's members are at depth 3,
// "/units/3/name", a unit's parameters at depth 4, "/units/3/params/engines"; anything deeper is
// refused at one of its ancestors, which have one).
constexpr size_t kLocatedDepth = 4;

// A unit or link name: it names a SystemC module or a channel, a statistics group and a VCD scope.
bool valid_name(const std::string& s) {
    return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
    });
}

// A JSON value in a message: its text when it is a number, string or literal, its kind when it
// is an object or array (whose text could be nested arbitrarily deep).
std::string shown(const nlohmann::json& v) {
    if (v.is_structured()) return fmt::format("an {}", v.type_name());
    return printable(v.dump(), 60);
}

class Reader {
public:
    Reader(const std::string& text, const std::string& source) : source_(source), offsets_(text, kLocatedDepth), lines_(text) {}

    std::string where(const std::string& ptr) const {
        const auto it = offsets_.at.find(ptr);
        return fmt::format("{}:{}", source_, lines_.at(it == offsets_.at.end() ? 0 : it->second));
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
                fail(ptr + "/" + json_pointer_escape(k), fmt::format("unknown member \"{}\" (valid: {})", printable(k, 60), valid));
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
    // A unit's or link's name.
    std::string name(const nlohmann::json& o, const std::string& ptr, const char* what) const {
        std::string s = str(o, ptr, "name");
        if (!valid_name(s))
            fail(ptr + "/name", fmt::format("{} name \"{}\": a name is letters, digits and '_' (it names the {} in "
                                            "stats.json and the VCD)",
                                            what, printable(s, 60), what));
        return s;
    }
    Amount amount(const nlohmann::json& o, const std::string& ptr, const char* key, uint64_t min) const {
        if (!o.contains(key)) fail(ptr, fmt::format("missing member \"{}\"", key));
        const auto& v = o[key];
        if (v.is_number_unsigned()) {
            if (v.get<uint64_t>() > 0xFFFFFFFFu) fail(ptr + "/" + key, fmt::format("\"{}\" is beyond 2^32 - 1", key));
            if (v.get<uint64_t>() < min)
                fail(ptr + "/" + key, fmt::format("\"{}\" must be at least {}, got {}", key, min, v.get<uint64_t>()));
            return Amount(v.get<uint64_t>());
        }
        if (v.is_string() && v.get<std::string>().find('.') != std::string::npos) return Amount(v.get<std::string>());
        fail(ptr + "/" + key,
             fmt::format("\"{}\" must be a number >= {} or a parameter key \"unit.param\", got {}", key, min, shown(v)));
    }
    Located located(const std::string& ptr, std::initializer_list<const char*> fields) const {
        Located at{{"", where(ptr)}};
        for (const char* f : fields)
            if (offsets_.at.count(ptr + "/" + f)) at[f] = where(ptr + "/" + f);
        return at;
    }

private:
    const std::string& source_;
    Offsets offsets_;
    Lines lines_;
};

// A unit's "bind": {"need": "unit.param"}, each entry located for messages.
void read_bind(const Reader& r, const nlohmann::json& b, const std::string& ptr, UnitSpec& s) {
    if (!b.is_object())
        r.fail(ptr + "/bind", fmt::format("\"bind\" must be an object {{\"need\": \"unit.param\"}}, got {}", b.type_name()));
    for (const auto& item : b.items()) {
        const std::string kp = ptr + "/bind/" + json_pointer_escape(item.key());
        const auto& v = item.value();
        if (!v.is_string() || v.get<std::string>().find('.') == std::string::npos)
            r.fail(kp, fmt::format("binding \"{}\": a binding is a parameter key \"unit.param\", got {}",
                                   printable(item.key(), 60), shown(v)));
        s.at["bind/" + item.key()] = r.where(kp);
        s.bind[item.key()] = v.get<std::string>();
    }
}

std::vector<UnitSpec> read_units(const Reader& r, const nlohmann::json& units) {
    std::vector<UnitSpec> out;
    std::set<std::string> names;
    for (size_t i = 0; i < units.size(); ++i) {
        const std::string ptr = "/units/" + std::to_string(i);
        const auto& u = units[i];
        r.keys(u, ptr, {"name", "type", "memory", "params", "bind"});
        UnitSpec s{r.name(u, ptr, "unit"), r.str(u, ptr, "type"), r.str(u, ptr, "memory", false),
                   nlohmann::json::object(), r.located(ptr, {"name", "type", "memory", "params", "bind"}), {}};
        if (u.contains("params")) {
            const auto& p = u["params"];
            if (!p.is_object())
                r.fail(ptr + "/params", fmt::format("\"params\" must be an object {{\"param\": value}}, got {}", p.type_name()));
            for (const auto& item : p.items()) {
                const std::string kp = ptr + "/params/" + json_pointer_escape(item.key());
                if (item.value().is_structured())
                    r.fail(kp, fmt::format("parameter \"{}\": a value is a number, true/false or a string, got {}",
                                           printable(item.key(), 60), shown(item.value())));
                s.at["params/" + item.key()] = r.where(kp);
            }
            s.params = p;
        }
        if (u.contains("bind")) read_bind(r, u["bind"], ptr, s);
        if (!names.insert(s.name).second) r.fail(ptr + "/name", fmt::format("unit {} is named twice", s.name));
        out.push_back(std::move(s));
    }
    return out;
}

std::vector<LinkSpec> read_links(const Reader& r, const nlohmann::json& links) {
    std::vector<LinkSpec> out;
    std::set<std::string> names;
    for (size_t i = 0; i < links.size(); ++i) {
        const std::string ptr = "/links/" + std::to_string(i);
        const auto& l = links[i];
        r.keys(l, ptr, {"name", "from", "to", "capacity", "latency", "bandwidth", "carries"});
        LinkSpec s{r.name(l, ptr, "link"),
                   r.str(l, ptr, "from"),
                   r.str(l, ptr, "to"),
                   r.amount(l, ptr, "capacity", 1),
                   r.amount(l, ptr, "latency", 0),
                   r.amount(l, ptr, "bandwidth", 1),
                   r.str(l, ptr, "carries", false),
                   r.located(ptr, {"name", "from", "to", "capacity", "latency", "bandwidth"})};
        if (!names.insert(s.name).second) r.fail(ptr + "/name", fmt::format("link {} is named twice", s.name));
        out.push_back(std::move(s));
    }
    return out;
}

}  // namespace

std::string located(const Located& at, const std::string& field, const std::string& what) {
    auto it = at.find(field);
    if (it == at.end()) it = at.find("");
    return fmt::format("{}: {}", it == at.end() ? "topology" : it->second, what);
}

Topology parse_topology(const std::string& text, const std::string& source) {
    nlohmann::json j;
    try {
        j = parse_json_file(text, source);
    } catch (const std::exception& e) {
        throw TopologyError(e.what());
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
    t.units = read_units(r, j["units"]);
    if (!j.contains("links") || !j["links"].is_array()) r.fail(j.contains("links") ? "/links" : "", "\"links\" must be an array");
    t.links = read_links(r, j["links"]);
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
    if (!read_input_file(path, text, why)) throw TopologyError(fmt::format("{}: {}", printable(path), why));
    return parse_topology(text, path);
}

}  // namespace vpsim::sc

#include "model/common/params.h"

#include "model/common/file_util.h"
#include "model/common/printable.h"

#include "model/common/json_error.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <fstream>
#include <set>
#include <sstream>

namespace vpsim {

const char* param_type_name(ParamType t) {
    switch (t) {
    case ParamType::Bool: return "bool";
    case ParamType::Uint: return "uint";
    case ParamType::Int: return "int";
    case ParamType::Double: return "double";
    case ParamType::Enum: return "enum";
    }
    return "?";
}

namespace {

std::string num_text(double v) {
    if (v == std::floor(v) && std::fabs(v) < 1e18) return fmt::format("{}", int64_t(v));
    return fmt::format("{}", v);
}

std::string join(const std::vector<std::string>& items, const char* sep) {
    std::string out;
    for (size_t i = 0; i < items.size(); ++i) out += (i ? sep : "") + items[i];
    return out;
}

// The value as a user wrote it, for messages.
// JSON text of a value for a message; bytes that are not UTF-8 (from --set) become U+FFFD.
std::string shown(const nlohmann::json& v) { return v.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace); }

}  // namespace

const char* param_kind_name(ParamKind k) {
    switch (k) {
        case ParamKind::None: return "";
        case ParamKind::Capacity: return "capacity";
        case ParamKind::Rate: return "rate";
        case ParamKind::Latency: return "latency";
    }
    return "";
}

ParamTable& ParamTable::kind(ParamKind k) {
    if (params.empty()) throw std::logic_error(unit + ": kind() before any parameter");
    if (params.back().type != ParamType::Uint && params.back().type != ParamType::Int &&
        params.back().type != ParamType::Double)
        throw std::logic_error(unit + "." + params.back().name + ": only a numeric parameter has a kind");
    params.back().kind = k;
    return *this;
}

std::string ParamDef::type_text() const {
    switch (type) {
    case ParamType::Enum: return fmt::format("enum {{{}}}", join(allowed, ", "));
    case ParamType::Bool: return "bool (true or false)";
    case ParamType::Uint:
        if (max && *max < 1.8e19) return fmt::format("uint in [{}, {}]", num_text(min.value_or(0)), num_text(*max));
        return min && *min > 0 ? fmt::format("uint >= {}", num_text(*min)) : "uint (an integer >= 0)";
    case ParamType::Int:
        if (min && max && *min > -9.2e18 && *max < 9.2e18)
            return fmt::format("int in [{}, {}]", num_text(*min), num_text(*max));
        return "int (an integer)";
    case ParamType::Double:
        if (min && max) return fmt::format("double in [{}, {}]", *min, *max);
        if (min) return fmt::format("double >= {}", *min);
        if (max) return fmt::format("double <= {}", *max);
        return "double (a number)";
    }
    return "?";
}

// ---- ParamTable builders ------------------------------------------------------------------

namespace {
ParamDef make_def(std::string name, ParamType type, std::string unit, nlohmann::json def, std::string description,
                  std::string source) {
    ParamDef d;
    d.name = std::move(name);
    d.type = type;
    d.unit = std::move(unit);
    d.default_value = std::move(def);
    d.description = std::move(description);
    d.source = std::move(source);
    return d;
}
}  // namespace

ParamTable& ParamTable::add_bool(std::string name, bool def, std::string description, std::string source) {
    params.push_back(make_def(std::move(name), ParamType::Bool, "", def, std::move(description), std::move(source)));
    return *this;
}

ParamTable& ParamTable::add_uint(std::string name, std::string unit_name, uint64_t def, std::string description,
                                 std::string source, uint64_t min, uint64_t max) {
    ParamDef d = make_def(std::move(name), ParamType::Uint, std::move(unit_name), def, std::move(description),
                          std::move(source));
    if (min > 0) d.min = double(min);
    if (max != std::numeric_limits<uint64_t>::max()) d.max = double(max);
    params.push_back(std::move(d));
    return *this;
}

ParamTable& ParamTable::add_int(std::string name, std::string unit_name, int64_t def, std::string description,
                                std::string source, int64_t min, int64_t max) {
    ParamDef d = make_def(std::move(name), ParamType::Int, std::move(unit_name), def, std::move(description),
                          std::move(source));
    if (min != std::numeric_limits<int64_t>::min()) d.min = double(min);
    if (max != std::numeric_limits<int64_t>::max()) d.max = double(max);
    params.push_back(std::move(d));
    return *this;
}

ParamTable& ParamTable::add_double(std::string name, std::string unit_name, double def, std::string description,
                                   std::string source, std::optional<double> min, std::optional<double> max) {
    ParamDef d = make_def(std::move(name), ParamType::Double, std::move(unit_name), def, std::move(description),
                          std::move(source));
    d.min = min;
    d.max = max;
    params.push_back(std::move(d));
    return *this;
}

ParamTable& ParamTable::add_enum(std::string name, std::vector<std::string> allowed, std::string def,
                                 std::string description, std::string source) {
    ParamDef d = make_def(std::move(name), ParamType::Enum, "", std::move(def), std::move(description), std::move(source));
    d.allowed = std::move(allowed);
    params.push_back(std::move(d));
    return *this;
}

const ParamDef* ParamTable::find(const std::string& name) const {
    for (const ParamDef& d : params)
        if (d.name == name) return &d;
    return nullptr;
}

std::string ParamTable::valid_keys() const {
    std::vector<std::string> keys;
    for (const ParamDef& d : params) keys.push_back(fmt::format("{}.{} ({})", unit, d.name, param_type_name(d.type)));
    return join(keys, ", ");
}

// ---- Value checking -----------------------------------------------------------------------

namespace {

[[noreturn]] void bad_value(const ParamDef& def, const std::string& key, const std::string& got,
                            const std::string& why = "") {
    throw ParamError(fmt::format("{}: expected {}, got {}{}", key, def.type_text(), got, why.empty() ? "" : " (" + why + ")"));
}

void check_range(const ParamDef& def, const std::string& key, double v, const std::string& got) {
    if ((def.min && v < *def.min) || (def.max && v > *def.max)) bad_value(def, key, got, "out of range");
}

}  // namespace

nlohmann::json check_param_value(const ParamDef& def, const nlohmann::json& v, const std::string& key) {
    switch (def.type) {
    case ParamType::Bool:
        if (!v.is_boolean()) bad_value(def, key, shown(v));
        return v;
    case ParamType::Uint: {
        if (v.is_number_unsigned()) {
            const uint64_t u = v.get<uint64_t>();
            // Compare exactly against integral bounds (double holds them exactly up to 2^53).
            if ((def.min && double(u) < *def.min) || (def.max && double(u) > *def.max))
                bad_value(def, key, shown(v), "out of range");
            return nlohmann::json(u);
        }
        if (v.is_number_integer()) bad_value(def, key, shown(v), "negative");
        if (v.is_number_float()) bad_value(def, key, shown(v), "not an integer");
        bad_value(def, key, shown(v));
    }
    case ParamType::Int: {
        if (v.is_number_unsigned()) {
            const uint64_t u = v.get<uint64_t>();
            if (u > uint64_t(std::numeric_limits<int64_t>::max())) bad_value(def, key, shown(v), "out of range");
            check_range(def, key, double(u), shown(v));
            return nlohmann::json(int64_t(u));
        }
        if (v.is_number_integer()) {
            check_range(def, key, double(v.get<int64_t>()), shown(v));
            return nlohmann::json(v.get<int64_t>());
        }
        if (v.is_number_float()) bad_value(def, key, shown(v), "not an integer");
        bad_value(def, key, shown(v));
    }
    case ParamType::Double: {
        if (!v.is_number()) bad_value(def, key, shown(v));
        const double d = v.get<double>();
        if (!std::isfinite(d)) bad_value(def, key, shown(v), "not finite");
        check_range(def, key, d, shown(v));
        return nlohmann::json(d);
    }
    case ParamType::Enum:
        if (!v.is_string() || std::find(def.allowed.begin(), def.allowed.end(), v.get<std::string>()) == def.allowed.end())
            bad_value(def, key, shown(v));
        return v;
    }
    bad_value(def, key, shown(v));
}

nlohmann::json parse_param_text(const ParamDef& def, const std::string& text, const std::string& key) {
    const std::string quoted = "'" + text + "'";
    switch (def.type) {
    case ParamType::Bool:
        if (text == "true" || text == "1" || text == "on" || text == "yes") return true;
        if (text == "false" || text == "0" || text == "off" || text == "no") return false;
        bad_value(def, key, quoted);
    case ParamType::Uint:
    case ParamType::Int: {
        const bool neg = !text.empty() && text[0] == '-';
        const std::string body = (neg || (!text.empty() && text[0] == '+')) ? text.substr(1) : text;
        const bool hex = body.size() > 2 && body[0] == '0' && (body[1] == 'x' || body[1] == 'X');
        const std::string digits = hex ? body.substr(2) : body;
        if (digits.empty() || digits.find_first_not_of(hex ? "0123456789abcdefABCDEF" : "0123456789") != std::string::npos) {
            bool is_number = false;
            if (!text.empty()) {
                char* end = nullptr;
                (void)std::strtod(text.c_str(), &end);
                is_number = end && *end == '\0';
            }
            bad_value(def, key, quoted, is_number ? "not an integer" : "");
        }
        errno = 0;
        const unsigned long long mag = std::strtoull(digits.c_str(), nullptr, hex ? 16 : 10);
        if (errno == ERANGE) bad_value(def, key, quoted, "out of range");
        if (def.type == ParamType::Uint) {
            if (neg && mag != 0) bad_value(def, key, quoted, "negative");
            return check_param_value(def, nlohmann::json(uint64_t(mag)), key);
        }
        if (neg) {
            if (mag > uint64_t(std::numeric_limits<int64_t>::max()) + 1) bad_value(def, key, quoted, "out of range");
            const int64_t s = mag == uint64_t(std::numeric_limits<int64_t>::max()) + 1 ? std::numeric_limits<int64_t>::min()
                                                                                       : -int64_t(mag);
            return check_param_value(def, nlohmann::json(s), key);
        }
        return check_param_value(def, nlohmann::json(uint64_t(mag)), key);
    }
    case ParamType::Double: {
        if (text.empty()) bad_value(def, key, quoted);
        char* end = nullptr;
        errno = 0;
        const double d = std::strtod(text.c_str(), &end);
        if (*end != '\0' || std::isspace((unsigned char)text[0])) bad_value(def, key, quoted);
        if (errno == ERANGE || !std::isfinite(d)) bad_value(def, key, quoted, "not finite");
        return check_param_value(def, nlohmann::json(d), key);
    }
    case ParamType::Enum: return check_param_value(def, nlohmann::json(text), key);
    }
    bad_value(def, key, quoted);
}

// ---- ParamSet -----------------------------------------------------------------------------

ParamSet::ParamSet(std::vector<ParamTable> tables) : tables_(std::move(tables)) {
    std::set<std::string> units, keys;
    for (const ParamTable& t : tables_) {
        if (t.unit.empty() || t.unit.find('.') != std::string::npos || !units.insert(t.unit).second)
            throw std::logic_error(fmt::format("parameter table '{}': empty, dotted or duplicate unit name", t.unit));
        if (!t.inherits.empty()) {
            // An instance table: the type's table comes first, with the same rows; no values of its own yet.
            const auto type = std::find_if(tables_.begin(), tables_.end(),
                                           [&](const ParamTable& o) { return o.unit == t.inherits && o.inherits.empty(); });
            if (type == tables_.end() || !units.count(t.inherits) || type->params.size() != t.params.size())
                throw std::logic_error(fmt::format("parameter table '{}': inherits '{}', not an earlier type table with "
                                                   "its rows", t.unit, t.inherits));
            inherits_[t.unit] = t.inherits;
            continue;
        }
        for (const ParamDef& d : t.params) {
            const std::string key = t.unit + "." + d.name;
            if (d.name.empty() || d.name.find('.') != std::string::npos || !keys.insert(key).second)
                throw std::logic_error(fmt::format("parameter '{}': empty, dotted or duplicate name", key));
            try {
                values_[key] = check_param_value(d, d.default_value, key);
            } catch (const ParamError& e) {
                throw std::logic_error(fmt::format("default of {}", e.what()));
            }
        }
    }
}

std::string ParamSet::valid_units() const {
    std::vector<std::string> names;
    for (const ParamTable& t : tables_) names.push_back(t.unit);
    return join(names, ", ");
}

const ParamTable& ParamSet::table_of(const std::string& unit, const std::string& key_path) const {
    for (const ParamTable& t : tables_)
        if (t.unit == unit) return t;
    throw ParamError(fmt::format("{}: unknown unit '{}'; valid units: {}", printable(key_path), printable(unit), valid_units()));
}

const ParamDef& ParamSet::def_of(const std::string& key) const {
    const size_t dot = key.find('.');
    if (dot == std::string::npos)
        throw ParamError(fmt::format("'{}': a key is unit.param; valid units: {}", printable(key), valid_units()));
    const ParamTable& t = table_of(key.substr(0, dot), key);
    const ParamDef* d = t.find(key.substr(dot + 1));
    if (!d) throw ParamError(fmt::format("{}: unknown parameter; valid keys: {}", printable(key), t.valid_keys()));
    return *d;
}

const nlohmann::json& ParamSet::resolved(const std::string& key) const {
    const auto v = values_.find(key);
    if (v != values_.end()) return v->second;
    const size_t dot = key.find('.');
    return values_.at(inherits_.at(key.substr(0, dot)) + key.substr(dot));
}

ParamSet ParamSet::for_instance(const std::string& instance) const {
    ParamSet p = *this;
    const auto it = inherits_.find(instance);
    if (it == inherits_.end()) return p;
    for (const ParamTable& t : tables_)
        if (t.unit == instance)
            for (const ParamDef& d : t.params) p.values_[it->second + "." + d.name] = resolved(instance + "." + d.name);
    return p;
}

void ParamSet::apply_json(const nlohmann::json& config, const std::string& origin) {
    if (!config.is_object())
        throw ParamError(fmt::format("{}: expected a JSON object {{\"unit\": {{\"param\": value}}}}, got {}", origin,
                                     config.type_name()));
    // Check everything first so a bad config leaves the set unchanged.
    std::vector<std::pair<std::string, nlohmann::json>> updates;
    for (const auto& [unit, params] : config.items()) {
        const ParamTable& t = table_of(unit, origin + ": " + unit);
        if (!params.is_object())
            throw ParamError(fmt::format("{}: {}: expected an object {{\"param\": value}}, got {}; valid keys: {}", origin,
                                         unit, params.type_name(), t.valid_keys()));
        for (const auto& [name, v] : params.items()) {
            const std::string key = unit + "." + name;
            const ParamDef* d = t.find(name);
            if (!d)
                throw ParamError(fmt::format("{}: {}: unknown parameter; valid keys: {}", origin, printable(key), t.valid_keys()));
            try {
                updates.emplace_back(key, check_param_value(*d, v, key));
            } catch (const ParamError& e) {
                throw ParamError(fmt::format("{}: {}", origin, e.what()));
            }
        }
    }
    for (auto& [key, v] : updates) values_[key] = std::move(v);
}

void ParamSet::take_values(const ParamSet& from, const std::string& origin) {
    std::vector<std::pair<std::string, nlohmann::json>> updates;
    for (const ParamTable& t : tables_)
        for (const ParamDef& d : t.params) {
            std::string key = t.unit + "." + d.name;
            try {
                nlohmann::json v = check_param_value(d, from.value(key), key);
                updates.emplace_back(std::move(key), std::move(v));
            } catch (const ParamError& e) {
                throw ParamError(fmt::format("{}: {}", origin, e.what()));
            }
        }
    for (auto& [key, v] : updates) values_[key] = std::move(v);
}

void ParamSet::apply_preset_json(const nlohmann::json& preset, const std::string& origin) {
    if (!preset.is_object() || !preset.contains("params") || !preset["params"].is_object())
        throw ParamError(fmt::format("{}: a preset needs \"params\": {{\"unit\": {{\"param\": {{\"value\": ..., "
                                     "\"source\": \"...\"}}}}}}",
                                     origin));
    nlohmann::json values = nlohmann::json::object();
    for (const auto& [unit, params] : preset["params"].items()) {
        if (!params.is_object())
            throw ParamError(fmt::format("{}: /params/{}: expected an object {{\"param\": {{\"value\": ..., \"source\": "
                                         "\"...\"}}}}, got {}",
                                         origin, unit, params.type_name()));
        for (const auto& [name, entry] : params.items()) {
            const std::string ptr = fmt::format("/params/{}/{}", unit, name);
            if (!entry.is_object() || !entry.contains("value") || !entry.contains("source") || !entry["source"].is_string() ||
                entry["source"].get<std::string>().empty())
                throw ParamError(fmt::format("{}: {}: a preset value is {{\"value\": ..., \"source\": \"published: ... or "
                                             "assumed: ...\"}}",
                                             origin, ptr));
            values[unit][name] = entry["value"];
        }
    }
    apply_json(values, origin);
}

void ParamSet::apply_config_file(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why))
        throw ParamError(fmt::format("{}: cannot read the config file: {}", printable(path), why));
    nlohmann::json j;
    try {
        j = parse_json_located(text);
    } catch (const std::runtime_error& e) {
        throw ParamError(fmt::format("{}: {}", path, e.what()));
    }
    // A run's config.json ({"schema": "vpsim-config-1", "scene": ..., "params": {...}}) is
    // accepted as it is: its "params" are the values.
    if (j.is_object() && j.contains("schema") && j["schema"] == "vpsim-config-1" && j.contains("params")) {
        apply_json(j["params"], path + ": /params");
        return;
    }
    if (j.is_object() && j.contains("schema") && j["schema"] == "vpsim-preset-1") {
        apply_preset_json(j, path);
        return;
    }
    apply_json(j, path);
}

void ParamSet::apply_set(const std::string& assignment) {
    const size_t eq = assignment.find('=');
    if (eq == std::string::npos)
        throw ParamError(fmt::format("'{}': expected unit.param=value; valid units: {}", printable(assignment), valid_units()));
    const std::string key = assignment.substr(0, eq);
    const ParamDef& d = def_of(key);
    values_[key] = parse_param_text(d, assignment.substr(eq + 1), key);
}

nlohmann::ordered_json ParamSet::to_json() const {
    nlohmann::ordered_json j = nlohmann::ordered_json::object();
    for (const ParamTable& t : tables_) {
        nlohmann::ordered_json u = nlohmann::ordered_json::object();
        for (const ParamDef& d : t.params) u[d.name] = resolved(t.unit + "." + d.name);
        j[t.unit] = std::move(u);
    }
    return j;
}

void ParamSet::write_config(const std::string& path) const { write_file_atomic(path, to_json().dump(2) + "\n"); }

const nlohmann::json& ParamSet::value(const std::string& key) const {
    def_of(key);
    return resolved(key);
}

bool ParamSet::is_default(const std::string& key) const {
    return check_param_value(def_of(key), def_of(key).default_value, key) == resolved(key);
}

namespace {
void want(const ParamDef& d, ParamType t, const std::string& key) {
    if (d.type != t)
        throw ParamError(fmt::format("{}: is a {} parameter, read as {}", key, param_type_name(d.type), param_type_name(t)));
}
}  // namespace

bool ParamSet::get_bool(const std::string& key) const {
    want(def_of(key), ParamType::Bool, key);
    return resolved(key).get<bool>();
}
uint64_t ParamSet::get_uint(const std::string& key) const {
    want(def_of(key), ParamType::Uint, key);
    return resolved(key).get<uint64_t>();
}
int64_t ParamSet::get_int(const std::string& key) const {
    want(def_of(key), ParamType::Int, key);
    return resolved(key).get<int64_t>();
}
double ParamSet::get_double(const std::string& key) const {
    want(def_of(key), ParamType::Double, key);
    return resolved(key).get<double>();
}
std::string ParamSet::get_enum(const std::string& key) const {
    want(def_of(key), ParamType::Enum, key);
    return resolved(key).get<std::string>();
}

namespace {
std::string value_text(const nlohmann::json& v) { return v.is_string() ? v.get<std::string>() : v.dump(); }
}  // namespace

std::string ParamSet::text() const {
    std::string out;
    for (const ParamTable& t : tables_) {
        out += fmt::format("{}: {}\n", t.unit, t.description);
        std::vector<std::array<std::string, 7>> rows{{"name", "type", "unit", "value", "default", "description", "source"}};
        for (const ParamDef& d : t.params) {
            const std::string key = t.unit + "." + d.name;
            std::string type = param_type_name(d.type);
            if (d.type == ParamType::Enum) type += "{" + join(d.allowed, "|") + "}";
            rows.push_back({d.name, type, d.unit.empty() ? "-" : d.unit,
                            value_text(resolved(key)) + (is_default(key) ? "" : " *"),
                            value_text(d.default_value), d.description, d.source});
        }
        std::array<size_t, 7> w{};
        for (const auto& r : rows)
            for (size_t i = 0; i < 6; ++i) w[i] = std::max(w[i], r[i].size());
        for (const auto& r : rows) {
            std::string line = " ";
            for (size_t i = 0; i < 6; ++i) line += " " + r[i] + std::string(w[i] - r[i].size() + 1, ' ');
            line += " " + r[6];
            out += line + "\n";
        }
        out += "\n";
    }
    if (!out.empty()) out += "(* = overridden by --config or --set)\n";
    return out;
}

nlohmann::ordered_json ParamSet::tables_json() const {
    nlohmann::ordered_json units = nlohmann::ordered_json::array();
    for (const ParamTable& t : tables_) {
        nlohmann::ordered_json u;
        u["unit"] = t.unit;
        u["description"] = t.description;
        nlohmann::ordered_json ps = nlohmann::ordered_json::array();
        for (const ParamDef& d : t.params) {
            nlohmann::ordered_json p;
            p["name"] = d.name;
            p["key"] = t.unit + "." + d.name;
            p["type"] = param_type_name(d.type);
            if (d.type == ParamType::Enum) p["allowed"] = d.allowed;
            p["unit"] = d.unit;
            p["value"] = resolved(t.unit + "." + d.name);
            p["default"] = d.default_value;
            if (d.min) p["min"] = *d.min;
            if (d.max) p["max"] = *d.max;
            if (d.kind != ParamKind::None) p["kind"] = param_kind_name(d.kind);
            p["description"] = d.description;
            p["source"] = d.source;
            ps.push_back(std::move(p));
        }
        u["params"] = std::move(ps);
        units.push_back(std::move(u));
    }
    return units;
}

}  // namespace vpsim

// Typed parameters, gem5 style (docs/parameters.md): each unit declares its table once
// (name, type, unit, default, one-line description, source of the default); a ParamSet holds
// the resolved value of every "unit.param" key after --config / --set overrides, and a run
// writes ParamSet::to_json() as config.json next to its statistics.
//
// A unit declares each parameter once, in a ParamBindings list that names the struct member
// the parameter fills: the same list builds the unit's table (defaults read from the struct's
// in-class initialisers) and reads a resolved ParamSet back into the struct. A run's tables are
// the pipeline's own two and those of the unit types its topology names, each type listing its
// tables in its registration (UnitType::tables; sc::param_tables(topology), model/sc/pipeline.cpp).
#pragma once

#include <nlohmann/json.hpp>

#include <functional>

#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace vpsim {

// An unknown key, an ill-typed or out-of-range value, or an unreadable config file. The
// message names the key path and lists the valid keys (or units) or the expected type.
struct ParamError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class ParamType { Bool, Uint, Int, Double, Enum };
const char* param_type_name(ParamType t);  // "bool", "uint", "int", "double", "enum"

// What a numeric parameter is to the hardware, declared by the unit that owns it (`vpsim why`,
// docs/why.md, relaxes each one): a capacity (entries, buffers, contexts: more is faster), a rate
// (work per cycle: more is faster) or a latency (cycles: fewer is faster). None: anything else
// (a policy, a shape, a functional limit, the clock).
enum class ParamKind { None, Capacity, Rate, Latency };
const char* param_kind_name(ParamKind k);  // "", "capacity", "rate", "latency"

// One row of a unit's table. The value is kept as JSON: a boolean, an unsigned or signed
// integer, a double or a string (enum), according to `type`.
struct ParamDef {
    std::string name;
    ParamType type = ParamType::Uint;
    std::string unit;         // "cycles", "entries", "bytes/cycle", "MHz", "" for none
    nlohmann::json default_value;
    std::string description;  // one line
    std::string source;       // where the default comes from, or "assumed"
    std::vector<std::string> allowed;  // Enum only
    std::optional<double> min, max;    // numeric types only (inclusive)
    ParamKind kind = ParamKind::None;  // capacity, rate or latency (`vpsim why`)

    // What a value must look like, e.g. "uint in [0, 4096]", "enum {fifo, lru}".
    std::string type_text() const;
};

// A unit's table. A ParamSet keeps its tables in the order it is given them (the timing
// model's: the pipeline's own, then each unit type's in the order the topology lists them).
struct ParamTable {
    std::string unit;
    std::string description;
    std::vector<ParamDef> params;
    // An instance's table (a topology's unit named otherwise than its type, docs/parameters.md,
    // "Per-instance parameters"): the rows of the type's table `inherits`, whose values it
    // follows until a value is set for the instance itself. "" for a type's own table.
    std::string inherits;

    ParamTable(std::string unit_name, std::string unit_description)
        : unit(std::move(unit_name)), description(std::move(unit_description)) {}

    // Builders: each appends one row and returns *this.
    ParamTable& add_bool(std::string name, bool def, std::string description, std::string source);
    ParamTable& add_uint(std::string name, std::string unit, uint64_t def, std::string description,
                         std::string source, uint64_t min = 0,
                         uint64_t max = std::numeric_limits<uint64_t>::max());
    ParamTable& add_int(std::string name, std::string unit, int64_t def, std::string description,
                        std::string source, int64_t min = std::numeric_limits<int64_t>::min(),
                        int64_t max = std::numeric_limits<int64_t>::max());
    ParamTable& add_double(std::string name, std::string unit, double def, std::string description,
                           std::string source, std::optional<double> min = std::nullopt,
                           std::optional<double> max = std::nullopt);
    ParamTable& add_enum(std::string name, std::vector<std::string> allowed, std::string def,
                         std::string description, std::string source);

    // Marks the last row added as a capacity, rate or latency (ParamKind).
    ParamTable& kind(ParamKind k);

    const ParamDef* find(const std::string& name) const;
    std::string valid_keys() const;  // "unit.a (uint), unit.b (bool)"
};

// The resolved values of every key of a set of tables.
class ParamSet {
public:
    // Defaults of the given tables; throws std::logic_error on a duplicate unit or name, or a
    // default that breaks its own type or range.
    explicit ParamSet(std::vector<ParamTable> tables);

    // {"unit": {"param": value, ...}, ...}. Values must have the JSON type of the parameter
    // (true/false, integers, numbers, enum strings). `origin` prefixes messages (a file name).
    void apply_json(const nlohmann::json& config, const std::string& origin = "config");
    // Every parameter of this set's tables takes `from`'s value of the same key (resolved, as
    // value() gives it), checked as apply_json checks it: apply_json of those values without the
    // JSON between (a unit's own set, built per unit and run).
    void take_values(const ParamSet& from, const std::string& origin);
    // A preset ({"schema": "vpsim-preset-1", "params": {"unit": {"param": {"value": v,
    // "source": "..."}}}}, model/presets/): every entry must have a value and a source.
    void apply_preset_json(const nlohmann::json& preset, const std::string& origin);
    // Reads and applies a JSON config file (a config, a run's config.json or a preset file); an
    // unreadable file or bad JSON is a ParamError.
    void apply_config_file(const std::string& path);
    // "unit.param=value", the value in text form (true/false/1/0, decimal or 0x integers,
    // numbers, enum names).
    void apply_set(const std::string& assignment);

    // Every resolved value: {"unit": {"param": value}} in table order (the config.json form,
    // accepted back by apply_json).
    nlohmann::ordered_json to_json() const;
    // Writes to_json() atomically to `path` (config.json next to stats.json).
    void write_config(const std::string& path) const;

    // Typed getters; key is "unit.param". A wrong type or unknown key is a ParamError.
    bool get_bool(const std::string& key) const;
    uint64_t get_uint(const std::string& key) const;
    int64_t get_int(const std::string& key) const;
    double get_double(const std::string& key) const;
    std::string get_enum(const std::string& key) const;
    const nlohmann::json& value(const std::string& key) const;
    bool is_default(const std::string& key) const;
    // An instance table's key set for the instance itself (false: it follows its type's value).
    bool is_set(const std::string& key) const { return values_.count(key) != 0; }
    // The set the unit `instance` reads: a copy in which the keys of the table it inherits
    // (its type's) hold the instance's values, so a unit reading "type.param" gets its own.
    // Unchanged when there is no such table.
    ParamSet for_instance(const std::string& instance) const;
    // Whether `instance` has a table inheriting its type's (for_instance would change the set).
    bool has_instance_table(const std::string& instance) const { return inherits_.count(instance) != 0; }

    const std::vector<ParamTable>& tables() const { return tables_; }

    // `vpsim params`: one text table per unit (name, type, unit, value, default, description,
    // source; '*' marks an overridden value), and the same as JSON.
    std::string text() const;
    nlohmann::ordered_json tables_json() const;

private:
    const ParamTable& table_of(const std::string& unit, const std::string& key_path) const;
    const ParamDef& def_of(const std::string& key) const;
    // The value of `key`: its own, or (an instance table's key not set) its type's.
    const nlohmann::json& resolved(const std::string& key) const;
    std::string valid_units() const;

    std::vector<ParamTable> tables_;
    std::map<std::string, nlohmann::json> values_;  // "unit.param" -> value (instance tables: only those set)
    std::map<std::string, std::string> inherits_;  // instance table -> its type's table
};

// Checks a JSON value against a parameter and returns it in canonical form (unsigned for
// uint, signed for int, double for double); throws ParamError naming `key` and the type.
nlohmann::json check_param_value(const ParamDef& def, const nlohmann::json& v, const std::string& key);
// Parses the text form of a value (for --set).
nlohmann::json parse_param_text(const ParamDef& def, const std::string& text, const std::string& key);

// A unit's parameters declared once (see the top of this file). Each builder appends one row
// of the table and the matching read-back into member `m` of P; the arguments are those of the
// ParamTable builders with the member in place of the default.
template <class P>
class ParamBindings {
public:
    ParamBindings(std::string unit, std::string description) : table_(unit, std::move(description)) {}

    template <class U>
    ParamBindings& uint(std::string name, std::string unit, U P::*m, std::string description, std::string source,
                        uint64_t min = 0, uint64_t max = std::numeric_limits<U>::max()) {
        static_assert(std::is_unsigned_v<U>, "uint parameters fill unsigned members");
        table_.add_uint(name, std::move(unit), uint64_t(defaults_.*m), std::move(description), std::move(source), min,
                        max);
        read_.push_back([m, key = key(name)](P& r, const ParamSet& p) { r.*m = U(p.get_uint(key)); });
        return *this;
    }
    ParamBindings& real(std::string name, std::string unit, double P::*m, std::string description, std::string source,
                        std::optional<double> min = std::nullopt, std::optional<double> max = std::nullopt) {
        table_.add_double(name, std::move(unit), defaults_.*m, std::move(description), std::move(source), min, max);
        read_.push_back([m, key = key(name)](P& r, const ParamSet& p) { r.*m = p.get_double(key); });
        return *this;
    }
    ParamBindings& boolean(std::string name, bool P::*m, std::string description, std::string source) {
        table_.add_bool(name, defaults_.*m, std::move(description), std::move(source));
        read_.push_back([m, key = key(name)](P& r, const ParamSet& p) { r.*m = p.get_bool(key); });
        return *this;
    }
    ParamBindings& choice(std::string name, std::vector<std::string> allowed, std::string P::*m,
                          std::string description, std::string source) {
        table_.add_enum(name, std::move(allowed), defaults_.*m, std::move(description), std::move(source));
        read_.push_back([m, key = key(name)](P& r, const ParamSet& p) { r.*m = p.get_enum(key); });
        return *this;
    }

    // The last parameter added is a capacity, a rate or a latency (ParamKind, `vpsim why`).
    ParamBindings& capacity() { return kind(ParamKind::Capacity); }
    ParamBindings& rate() { return kind(ParamKind::Rate); }
    ParamBindings& latency() { return kind(ParamKind::Latency); }

    const ParamTable& table() const { return table_; }
    P from(const ParamSet& p) const {
        P r;
        for (const auto& f : read_) f(r, p);
        return r;
    }

private:
    ParamBindings& kind(ParamKind k) {
        table_.kind(k);
        return *this;
    }
    std::string key(const std::string& name) const { return table_.unit + "." + name; }
    const P defaults_{};
    ParamTable table_;
    std::vector<std::function<void(P&, const ParamSet&)>> read_;
};

}  // namespace vpsim

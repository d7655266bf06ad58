#include "model/study/why.h"

#include "model/study/points.h"
#include "model/study/sample_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <set>

namespace vpsim::study {

std::string Relaxation::set() const { return key + "=" + cell_text(to); }

namespace {

std::string num(double v) { return fmt::format("{:g}", v); }

}  // namespace

std::optional<nlohmann::json> relaxed_value(const ParamDef& def, const nlohmann::json& v, double factor,
                                            std::string& why) {
    const bool up = def.kind == ParamKind::Capacity || def.kind == ParamKind::Rate;
    const double x = v.get<double>();
    if (def.kind == ParamKind::None || !(factor > 1)) {
        why = def.kind == ParamKind::None ? "not a capacity, rate or latency" : "the factor must be above 1";
        return std::nullopt;
    }
    if (x == 0) {
        why = up ? fmt::format("0 (see its description) is not scaled by x{}", num(factor))
                 : std::string("0 cycles: nothing to take off");
        return std::nullopt;
    }
    double to = up ? x * factor : x / factor;
    if (def.type != ParamType::Double) to = up ? std::ceil(to - 1e-9) : std::floor(to + 1e-9);
    if (up && def.max && to > *def.max) to = *def.max;
    if (!up && def.min && to < *def.min) to = *def.min;
    if (to == x) {
        if (up && def.max && x >= *def.max)
            why = fmt::format("at its maximum ({})", num(*def.max));
        else if (!up && def.min && x <= *def.min)
            why = fmt::format("at its minimum ({})", num(*def.min));
        else
            why = fmt::format("{} {} {} rounds back to {}", num(x), up ? "x" : "/", num(factor), num(x));
        return std::nullopt;
    }
    switch (def.type) {
        case ParamType::Uint: return nlohmann::json(uint64_t(to));
        case ParamType::Int: return nlohmann::json(int64_t(to));
        default: return nlohmann::json(to);
    }
}

Plan plan_relaxations(const ParamSet& p, double factor) {
    Plan plan;
    // A type whose units have tables of their own (a topology's several instances) is relaxed per
    // instance, not as a whole (docs/why.md).
    std::set<std::string> per_instance;
    for (const ParamTable& t : p.tables())
        if (!t.inherits.empty()) per_instance.insert(t.inherits);
    for (const ParamTable& t : p.tables()) {
        if (per_instance.count(t.unit)) continue;
        for (const ParamDef& d : t.params) {
            if (d.kind == ParamKind::None) continue;
            const std::string key = t.unit + "." + d.name;
            const nlohmann::json& v = p.value(key);
            std::string why;
            if (const auto to = relaxed_value(d, v, factor, why))
                plan.variants.push_back({key, d.kind, v, *to});
            else
                plan.skipped.push_back({key, d.kind, v, why});
        }
    }
    return plan;
}

std::vector<StallMove> stall_moves(const nlohmann::json& base_stats, const nlohmann::json& stats, size_t n) {
    std::vector<StallMove> out;
    auto stalls_of = [](const nlohmann::json& st, const std::string& unit) -> const nlohmann::json* {
        const auto u = st.find("units");
        if (u == st.end() || !u->contains(unit)) return nullptr;
        const nlohmann::json& g = (*u)[unit];
        if (!g.contains("cycles") || !g["cycles"].contains("stalled")) return nullptr;
        return &g["cycles"]["stalled"];
    };
    if (!base_stats.contains("units")) return out;
    for (auto it = base_stats["units"].begin(); it != base_stats["units"].end(); ++it) {
        const nlohmann::json* before = stalls_of(base_stats, it.key());
        const nlohmann::json* after = stalls_of(stats, it.key());
        if (!before || !after) continue;
        for (auto r = before->begin(); r != before->end(); ++r) {
            StallMove m;
            m.counter = it.key() + "." + r.key();
            m.before = r->value("cycles", uint64_t(0));
            m.after = after->contains(r.key()) ? (*after)[r.key()].value("cycles", uint64_t(0)) : 0;
            if (m.change() != 0) out.push_back(m);
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const StallMove& a, const StallMove& b) { return std::llabs(a.change()) > std::llabs(b.change()); });
    if (out.size() > n) out.resize(n);
    return out;
}

Effect measure(const std::vector<Relaxation>& changes, const nlohmann::json& base_stats, const nlohmann::json& stats,
               size_t moves) {
    Effect e;
    e.changes = changes;
    const uint64_t base = base_stats.at("cycles").get<uint64_t>();
    e.cycles = stats.at("cycles").get<uint64_t>();
    e.saved = int64_t(base) - int64_t(e.cycles);
    e.percent = base ? 100.0 * double(e.saved) / double(base) : 0.0;
    e.moved = stall_moves(base_stats, stats, moves);
    if (is_sampled_stats(base_stats)) {
        e.sampled = true;
        e.saved_half_width = sampled_half_width(base_stats) + sampled_half_width(stats);
    }
    return e;
}

void combine(Effect& pair, const std::vector<const Effect*>& parts, uint64_t base_cycles) {
    pair.parts.clear();
    pair.parts_sum = 0;
    pair.parts_best = 0;
    for (const Effect* e : parts) {
        pair.parts.push_back(e->saved);
        pair.parts_sum += e->saved;
        pair.parts_best = std::max(pair.parts_best, e->saved);
    }
    const double margin = 0.005 * double(base_cycles);
    pair.synergy = double(pair.saved - pair.parts_sum) > margin && pair.saved > pair.parts_best;
    bool all_help = !parts.empty();
    for (const Effect* e : parts) all_help = all_help && double(e->saved) > margin;
    pair.same_limit = all_help && parts.size() > 1 && double(pair.saved - pair.parts_best) < margin;
}

void rank(std::vector<Effect>& effects) {
    std::stable_sort(effects.begin(), effects.end(), [](const Effect& a, const Effect& b) { return a.saved > b.saved; });
}

Agreement agreement(const nlohmann::json& bottleneck, const std::string& top_key, double top_percent,
                    const std::map<std::string, std::vector<std::string>>& unit_tables,
                    const std::map<std::string, std::string>& unit_memory) {
    Agreement a;
    const std::string unit = bottleneck.value("unit", "");
    const std::string reason = bottleneck.value("reason", "");
    const std::string table = top_key.substr(0, top_key.find('.'));
    std::vector<std::string> tables;
    if (const auto it = unit_tables.find(unit); it != unit_tables.end()) tables = it->second;
    const std::ptrdiff_t own = std::ptrdiff_t(tables.size());  // the unit's own; then its memory's
    if (reason.find("memory") != std::string::npos)
        if (const auto m = unit_memory.find(unit); m != unit_memory.end() && !m->second.empty())
            if (const auto mt = unit_tables.find(m->second); mt != unit_tables.end())
                tables.insert(tables.end(), mt->second.begin(), mt->second.end());
    const bool capacity = bottleneck.value("capacity_key", "") == top_key;
    a.agrees = capacity || std::find(tables.begin(), tables.end(), table) != tables.end();
    if (unit.empty())
        a.text = "the summary names no bottleneck";
    else if (a.agrees)
        a.text = fmt::format("agrees: the summary's bottleneck is {}, and relaxing {} ({}) saves most", unit, top_key,
                             capacity                                                   ? "the capacity it names"
                             : std::find(tables.begin(), tables.begin() + own, table) != tables.begin() + own
                                 ? "a parameter of that unit"
                                 : "a parameter of the memory it waits for");
    else
        a.text = fmt::format(
            "disagrees: the summary's bottleneck is {} ({}), but relaxing {} saves most ({:.1f} %): the summary "
            "follows stall chains to where the wait is felt, which need not be the parameter that removes it",
            unit, reason, top_key, top_percent);
    return a;
}

nlohmann::ordered_json effect_json(const Effect& e, bool pair) {
    nlohmann::ordered_json j;
    auto ch = nlohmann::ordered_json::array();
    for (const auto& r : e.changes)
        ch.push_back({{"key", r.key}, {"kind", param_kind_name(r.kind)}, {"from", r.from}, {"to", r.to}});
    j["changes"] = ch;
    j["cycles"] = e.cycles;
    j["saved"] = e.saved;
    j["percent"] = e.percent;
    if (e.sampled) {  // absent: full runs, exact
        j["saved_half_width"] = e.saved_half_width;
        j["within_interval"] = e.within_interval();
    }
    auto mv = nlohmann::ordered_json::array();
    for (const auto& m : e.moved) mv.push_back({{"counter", m.counter}, {"before", m.before}, {"after", m.after}});
    j["stalls_moved"] = mv;
    if (pair) {
        j["parts"] = e.parts;
        j["parts_sum"] = e.parts_sum;
        j["parts_best"] = e.parts_best;
        j["super_additive"] = e.synergy;  // more together than the parts apart
        j["same_limit"] = e.same_limit;   // together no more than the better part
    }
    return j;
}

}  // namespace vpsim::study

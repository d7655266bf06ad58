// `why` for the Python API (runner.h): the analysis of `vpsim why` (model/study/why.h) with its
// runs in this process, one after another, instead of study points run by a backend.
#include "python/bindings/runner.h"

#include "model/sc/unit_registry.h"
#include "model/scene/scene_window.h"
#include "model/study/why.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <fnmatch.h>
#include <map>
#include <stdexcept>

namespace vpsim::pyapi {

namespace {

using study::Effect;
using study::Relaxation;

// Keeps the variants and skipped parameters `only`'s globs match; a glob matching none is refused.
void narrow(study::Plan& plan, const std::vector<std::string>& only) {
    if (only.empty()) return;
    auto matches = [](const std::string& g, const std::string& key) { return ::fnmatch(g.c_str(), key.c_str(), 0) == 0; };
    auto wanted = [&](const std::string& key) {
        return std::any_of(only.begin(), only.end(), [&](const std::string& g) { return matches(g, key); });
    };
    for (const auto& g : only) {
        bool any = false;
        for (const auto& r : plan.variants) any = any || matches(g, r.key);
        for (const auto& r : plan.skipped) any = any || matches(g, r.key);
        if (!any) {
            std::string keys;
            for (const auto& r : plan.variants) keys += (keys.empty() ? "" : ", ") + r.key;
            throw std::invalid_argument(
                fmt::format("only {}: matches no capacity, rate or latency of this pipeline; they are: {}", g, keys));
        }
    }
    auto& v = plan.variants;
    v.erase(std::remove_if(v.begin(), v.end(), [&](const Relaxation& r) { return !wanted(r.key); }), v.end());
    auto& k = plan.skipped;
    k.erase(std::remove_if(k.begin(), k.end(), [&](const study::Skipped& r) { return !wanted(r.key); }), k.end());
}

}  // namespace

std::string why(const RunSpec& s, double factor, const std::vector<std::string>& only, unsigned pairs, unsigned moves,
                uint64_t budget) {
    if (!(factor > 1.0) || !std::isfinite(factor))
        throw std::invalid_argument(fmt::format("factor {}: must be a number above 1 (capacities and rates are "
                                                "multiplied by it, latencies divided)", factor));
    if (s.draws) throw std::invalid_argument("draws: why chooses its window from budget (references); not draws");
    const Resolved r = resolve(s);
    // The window, as `vpsim why --budget`: the first draws whose references fit the budget.
    const auto sizes = scene::draw_sizes(r.scene);
    const uint64_t n = scene::draws_within(sizes, budget);
    uint64_t refs = 0, total = 0;
    for (size_t i = 0; i < sizes.size(); ++i) {
        total += sizes[i].references.value_or(0);
        if (i < n) refs += sizes[i].references.value_or(0);
    }
    RunSpec base = s;
    base.draws = n < sizes.size() ? n : 0;
    study::Plan plan = study::plan_relaxations(r.params, factor);
    narrow(plan, only);
    const auto t0 = std::chrono::steady_clock::now();
    unsigned runs = 0;
    auto stats_of = [&](const std::vector<Relaxation>& ch, nlohmann::json* bottleneck = nullptr) {
        RunSpec v = base;
        for (const auto& x : ch) v.sets.push_back(x.set());
        const RunOutput o = run_timing(v);
        ++runs;
        if (bottleneck) *bottleneck = nlohmann::json::parse(o.bottleneck_json);
        return nlohmann::json::parse(o.stats_json);
    };
    nlohmann::json bottleneck;
    const nlohmann::json base_stats = stats_of({}, &bottleneck);
    const uint64_t base_cycles = base_stats.at("cycles").get<uint64_t>();
    std::vector<Effect> ranking;
    for (const auto& v : plan.variants) ranking.push_back(study::measure({v}, base_stats, stats_of({v}), moves));
    study::rank(ranking);
    std::vector<Effect> pair_effects;
    const size_t top = std::min<size_t>(pairs, ranking.size());
    for (size_t i = 0; i < top; ++i)
        for (size_t k = i + 1; k < top; ++k) {
            const std::vector<Relaxation> ch = {ranking[i].changes[0], ranking[k].changes[0]};
            Effect e = study::measure(ch, base_stats, stats_of(ch), moves);
            study::combine(e, {&ranking[i], &ranking[k]}, base_cycles);
            pair_effects.push_back(std::move(e));
        }
    study::rank(pair_effects);
    // The summary's sentence beside the top variant (the unit instances' tables and memories).
    std::map<std::string, std::vector<std::string>> tables;
    std::map<std::string, std::string> memory;
    for (const sc::UnitSpec& u : r.topology.units) {
        if (const sc::UnitType* type = sc::builtin_units().find(u.type))
            for (const ParamTable& pt : type->tables) tables[u.name].push_back(pt.unit);
        memory[u.name] = u.memory;
    }
    const study::Agreement agree =
        ranking.empty() || ranking[0].saved <= 0
            ? study::Agreement{false, "no relaxation saves cycles: nothing to compare the summary's bottleneck with"}
            : study::agreement(bottleneck, ranking[0].changes[0].key, ranking[0].percent, tables, memory);
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-why-1";
    j["factor"] = factor;
    j["only"] = only;
    j["window"] = {{"draws", base.draws ? base.draws : sizes.size()}, {"scene_draws", sizes.size()},
                   {"whole_scene", base.draws == 0}, {"references", base.draws ? refs : total},
                   {"scene_references", total}, {"budget", budget}};
    j["baseline"] = {{"cycles", base_cycles}, {"bottleneck", bottleneck}};
    auto rk = nlohmann::ordered_json::array();
    for (const auto& e : ranking) rk.push_back(study::effect_json(e, false));
    j["ranking"] = rk;
    auto pr = nlohmann::ordered_json::array();
    for (const auto& e : pair_effects) pr.push_back(study::effect_json(e, true));
    j["pairs"] = pr;
    auto sk = nlohmann::ordered_json::array();
    for (const auto& k : plan.skipped)
        sk.push_back({{"key", k.key}, {"kind", param_kind_name(k.kind)}, {"value", k.value}, {"why", k.why}});
    j["skipped"] = sk;
    j["agreement"] = {{"agrees", agree.agrees}, {"text", agree.text}};
    j["runs"] = {{"count", runs},
                 {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
    return j.dump();
}

}  // namespace vpsim::pyapi

// `vpsim why` (docs/why.md): what would make a run faster, found by changing things and measuring.
// Every parameter a unit declares a capacity, a rate or a latency (ParamKind, model/common/params.h)
// is relaxed by a factor (capacities and rates multiplied, latencies divided), each variant runs as
// a study point (points.h, backend.h), and the variants are ranked by the cycles they save, with
// the stall counters that moved; the top few are then tried in pairs to find those that only help
// together. This file is the analysis; model/cli/cmd_why.cpp runs the points and prints.
#pragma once

#include "model/common/params.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

namespace vpsim::study {

// One parameter changed: `key` from `from` to `to`.
struct Relaxation {
    std::string key;
    ParamKind kind = ParamKind::None;
    nlohmann::json from, to;
    std::string set() const;  // "unit.param=value" (a --set)
};

// A parameter that is a capacity, rate or latency but cannot be relaxed, and why.
struct Skipped {
    std::string key;
    ParamKind kind = ParamKind::None;
    nlohmann::json value;
    std::string why;
};

// `def`'s value `v` relaxed by `factor` (> 1): capacities and rates x factor (rounded up, at most
// the maximum), latencies / factor (rounded down, at least the minimum). None when the value
// cannot move (at its limit, or 0, which x factor leaves as it is); `why` then says which.
std::optional<nlohmann::json> relaxed_value(const ParamDef& def, const nlohmann::json& v, double factor,
                                            std::string& why);

struct Plan {
    std::vector<Relaxation> variants;
    std::vector<Skipped> skipped;
};
// Every kind-marked parameter of `p`, in table order.
Plan plan_relaxations(const ParamSet& p, double factor);

// A stall counter's change from the baseline: stats.json's units/UNIT/cycles/stalled/REASON.
struct StallMove {
    std::string counter;  // "unit.reason"
    uint64_t before = 0, after = 0;
    int64_t change() const { return int64_t(after) - int64_t(before); }
};
// The `n` stall counters that moved most (by absolute change), largest first; unmoved ones left out.
std::vector<StallMove> stall_moves(const nlohmann::json& base_stats, const nlohmann::json& stats, size_t n);

// A measured variant: one relaxation, or two tried together.
struct Effect {
    std::vector<Relaxation> changes;
    uint64_t cycles = 0;
    int64_t saved = 0;   // baseline cycles - cycles
    double percent = 0;  // saved / baseline cycles x 100
    // Sampled runs (`vpsim why --sample`): the saving's half-width, the sum of the two runs'
    // (docs/sampling.md, "In sweeps and why": the paired differences' was measured too narrow);
    // 0 for full runs.
    double saved_half_width = 0;
    bool sampled = false;
    // A sampled saving whose interval holds 0: not told apart from no effect.
    bool within_interval() const { return sampled && double(saved < 0 ? -saved : saved) <= saved_half_width; }
    std::vector<StallMove> moved;
    // Pairs: the savings of each part alone, and whether together they save more than both
    // alone added up (they only help together).
    std::vector<int64_t> parts;
    int64_t parts_sum = 0, parts_best = 0;
    bool synergy = false;
    // Both parts save cycles alone but together no more than the better one: they relieve the
    // same limit (either will do).
    bool same_limit = false;
};
Effect measure(const std::vector<Relaxation>& changes, const nlohmann::json& base_stats, const nlohmann::json& stats,
               size_t moves);
// A pair's parts: their savings alone. It only helps together (synergy) when it saves more than
// its parts added up by over 0.5 % of the baseline's cycles (and more than the best part); its
// parts relieve the same limit when each saves over 0.5 % alone and together they save less than
// 0.5 % more than the better one.
void combine(Effect& pair, const std::vector<const Effect*>& parts, uint64_t base_cycles);
// Largest saving first (ties: table order kept).
void rank(std::vector<Effect>& effects);

// Whether the run summary's bottleneck (stats.json's summary.bottleneck) names the unit whose
// parameter is `top_key`: the bottleneck unit's own tables (its type's), the memory its memory
// port reads when the sentence is about memory, or the channel capacity the sentence names.
// `unit_tables`: the tables of each unit instance (stats.json group -> table names);
// `unit_memory`: each unit's memory instance.
struct Agreement {
    bool agrees = false;
    std::string text;  // one sentence
};
Agreement agreement(const nlohmann::json& bottleneck, const std::string& top_key, double top_percent,
                    const std::map<std::string, std::vector<std::string>>& unit_tables,
                    const std::map<std::string, std::string>& unit_memory);

// One relaxation's (or pair's) effect as `vpsim why --json` writes it (schema vpsim-why-1, docs/why.md):
// its changes, cycles, saving and the stall counters that moved; a pair adds its parts.
nlohmann::ordered_json effect_json(const Effect& e, bool pair);

}  // namespace vpsim::study

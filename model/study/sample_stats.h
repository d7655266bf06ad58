// A sampled run's statistics file (`vpsim run --sample --out DIR`: DIR/stats.json, schema
// vpsim-stats-sampled-1, docs/sampling.md "In sweeps and why"): the estimate laid out as a full
// run's stats.json (cycles, units/UNIT/cycles/{busy,stalled}, summary) so that `vpsim sweep`'s
// results table and `vpsim why` read it as they read a full run's, with each estimate's interval
// beside it and every block's (sampled unit's or whole phase's) cycles.
#pragma once

#include "model/study/sampling.h"

#include <nlohmann/json.hpp>

#include <string>

namespace vpsim::study {

// The stats.json of a sampled run of `scene` (`references`: the scene's, as the summary says).
nlohmann::ordered_json sample_stats_json(const std::string& scene, const SampleResult& r);

// The summary's note for a run that was to be sampled but ran in full (`vpsim run --sample
// --sample-fallback`): "sampled": false and the reason sampling was refused.
void note_sample_refused(nlohmann::ordered_json& summary, const std::string& reason);

// Whether a stats.json is a sampled run's.
bool is_sampled_stats(const nlohmann::json& stats);

// A sampled run's cycles half-width (summary.sample.cycles_half_width); 0 for a full run's.
double sampled_half_width(const nlohmann::json& stats);

}  // namespace vpsim::study

// A sampled run's statistics file (`vpsim run --sample --out DIR`: DIR/stats.json, schema
// vpsim-stats-sampled-1, docs/sampling.md "In sweeps and why"): the estimate laid out as a full
// run's stats.json (cycles, units/UNIT/cycles/{busy,stalled}, summary) so that `vpsim sweep`'s
// results table and `vpsim why` read it as they read a full run's, with each estimate's interval
// beside it and every block's cycles, from which two sampled runs of the same plan give the
// interval of their difference.
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

// `other` - `base` of two sampled runs of the same plan (the same scene, units, phases and seed:
// the same units measured), with its interval from the paired differences of their blocks
// (stratified as the estimate, docs/sampling.md "The estimate"). Throws std::runtime_error when
// either is not a sampled run's or their plans differ.
Estimate sampled_difference(const nlohmann::json& base, const nlohmann::json& other, double z);

}  // namespace vpsim::study

// Sampled simulation (`vpsim run --sample`, docs/sampling.md): SMARTS-style systematic sampling
// of a scene's command stream on the timing model. The scene is cut into sampling units (a draw's
// primitives in pieces of about `unit_refs` references; a draw too small to cut, or a fan, is one
// unit), grouped into phases (runs of units drawn in one draw state) of kinds (the draw state,
// wherever it recurs); each kind's units are two strata (those that start a phase, the others),
// and one unit of every k of a stratum, ordered by its vertices shaded, at a seeded random
// position, is simulated in detail after `warmup` references of detailed warming, in one run
// between two marks (the cycles the warm-up's and the unit's last references leave the output).
// The total cycles and each unit's busy and stall cycles are estimated by regression on the
// vertices shaded, with a confidence interval from the residuals plus a bias allowance. A stratum
// too small to hold enough samples, and the scene's first and last units, are simulated whole. Scenes it cannot bound are refused
// (SampleRefused).
#pragma once

#include "model/common/params.h"
#include "model/pipe/post_transform_cache.h"
#include "model/sc/pipeline.h"
#include "model/scene/scene.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::study {

struct SampleOptions {
    uint64_t unit_refs = 0;   // references per sampling unit (0: chosen from the scene's size)
    uint64_t period = 0;      // k: one unit in every k of a stratum (0: about `target_samples` samples)
    uint64_t warmup = 5000;   // references (whole units) of detailed warming before each measured unit or block
    uint64_t seed = 1;        // the offsets' generator (std::mt19937_64)
    double z = 3.0;           // the interval's half-width in standard errors (3: 99.7 %)
    // The warm-up's bias the interval allows for, relative to the sampled part of the estimate: the
    // start check's tolerance (a sample's warm-up start may move a span's cycles by this much).
    double bias = 0.005;
    uint64_t min_samples = 30;        // fewer samples: refused (too short for the CLT)
    uint64_t min_phase_samples = 10;  // a stratum's least samples (its period shortened); one of fewer than twice as many units is simulated whole
    uint64_t target_samples = 30;     // the automatic period's aim
    // The post-transform cache whose misses (vertices shaded) each unit's cycles are regressed on
    // (the estimate's auxiliary variable): the run's parameters' (`vpsim run` sets them).
    pipe::PostTransformCacheParams cache;
};

// A scene sampling cannot bound; what() says why (exit status 2).
struct SampleRefused : std::runtime_error {
    using std::runtime_error::runtime_error;
};

struct SampleUnit {
    size_t command = 0;          // the draw command it is part of
    uint64_t first = 0, end = 0; // its primitives [first, end) of that draw
    bool whole = false;          // the draw as it is (not cut)
    uint64_t references = 0;
    size_t phase = 0;
    uint64_t shaded = 0;         // its references that miss the post-transform cache (functional; all when not indexed)
};

// Units measured together: one sampled unit, or units simulated whole (a run of them).
struct SampleBlock {
    size_t first = 0, last = 0;  // units [first, last]
    bool sampled = false;        // one unit of a sampled stratum; else simulated whole
    size_t phase = 0;            // sampled: its phase
    size_t stratum = 0;          // sampled: its stratum (SamplePlan::stratum_units)
};

// A phase: a run of units whose draws run with the same state. Phases of the same kind (the same
// draw state wherever it recurs: the program's state, the primitive type and indexedness) are one
// stratum of the estimate, sampled together.
struct SamplePhase {
    size_t first = 0, count = 0;  // units [first, first + count)
    bool sampled = false;         // its kind's units that do not start a phase are sampled
    uint64_t samples = 0;         // units measured in this phase
    size_t kind = 0;              // its kind (an index: kinds in order of first appearance)
};

struct SamplePlan {
    uint64_t unit_refs = 0, period = 0, warmup = 0, seed = 0;
    double bias = 0;  // SampleOptions::bias
    std::vector<SampleUnit> units;
    std::vector<SamplePhase> phases;
    size_t kinds = 0;  // distinct kinds of phases (2 strata each)
    // Per stratum (2 k: kind k's units that do not start a phase; 2 k + 1: those that do): the units
    // it samples from (0: simulated whole), their vertices shaded (the auxiliary's total), its period.
    std::vector<uint64_t> stratum_units, stratum_shaded, stratum_period;
    std::vector<SampleBlock> blocks;
    // Per command of the scene: where a later command replaces all it set (scene::replaced_at);
    // a block's run leaves out the state commands replaced before its first draw.
    std::vector<size_t> replaced;
    uint64_t references = 0;  // of the whole scene
    uint64_t samples = 0;     // sampled units over all phases
    uint64_t whole_units = 0; // units in phases simulated whole
};

// Cuts the scene into units and phases and chooses the samples. Throws SampleRefused.
SamplePlan plan_sampling(const scene::Scene& s, const SampleOptions& o);

// The vertices shaded of a block's units (the auxiliary of the estimate).
uint64_t block_shaded(const SamplePlan& p, const SampleBlock& b);

// The first unit of the detailed warm-up before unit `first` (docs/sampling.md "How" 4): back
// over whole units until `p.warmup` references precede it; or, when its draw starts fewer than
// `p.warmup` - `ahead` references before it, back to the draw's first unit and on over whole units
// until `ahead` references precede that (the post-transform cache is emptied at every draw; what
// the draws before leave is what the pipeline still holds of them, at most `ahead` references:
// the output's order queue).
size_t warmup_start(const SamplePlan& p, size_t first, uint64_t ahead);

// The scene holding the commands up to unit `last` (all commands after the last unit's draw
// when it is the scene's last unit) with only units [first, last] of its draws: draws outside
// the range are dropped, a draw partly inside is cut to its units' primitives; `with_buffers`
// false leaves its buffers empty (a run lends them). `drop_replaced`: the state commands before
// unit `first`'s draw that a later one there replaces (p.replaced) are dropped too — for a run
// measured from a mark after that draw, not from its start, whose cycles include theirs.
scene::Scene sub_scene(const scene::Scene& s, const SamplePlan& p, size_t first, size_t last, bool with_buffers = true,
                       bool drop_replaced = false);

struct Estimate {
    double value = 0, half_width = 0;  // value ± half_width (z standard errors)
};

struct SampledStat {
    std::string unit, reason;  // reason "busy" or a stall reason
    Estimate cycles;           // the total over the run
    Estimate share;            // of the run's cycles (ratio estimate)
};

// The start check (docs/sampling.md, "The draw's start"): a sampled phase's probe unit, the first
// whose warm-up begins after the phase's first unit, measured twice, simulated from the phase's
// first unit (as the full run reaches it) and from its own warm-up's start (as a sample is).
struct StartCheck {
    size_t phase = 0, first = 0, last = 0;         // the probe: units [first, last] of the phase
    double from_phase_start = 0, from_warmup = 0;  // the probe's cycles each way
    uint64_t runs = 0, detail_references = 0;      // what the check simulated
    double relative() const;                       // |difference| / the larger
};

// Runs the start check on each sampled kind's first phase long enough for one; throws SampleRefused when a
// probe's two measurements differ by more than `tolerance` (relative): a state the draw's start
// sets persists, and samples that start elsewhere would not see it.
std::vector<StartCheck> check_start(scene::Scene& s, const SamplePlan& plan, const ParamSet& params,
                                    const vs::Profile& profile, const sc::RunOptions& options,
                                    double tolerance = 0.005);

struct SampleResult {
    SamplePlan plan;
    double z = 3;
    Estimate cycles;
    std::vector<SampledStat> stats;  // every unit's busy cycles and stall reasons, topology order
    uint64_t detail_references = 0;  // references simulated in detail, warm-ups and cool-downs included
    uint64_t runs = 0;               // timing-model runs
    std::vector<double> block_cycles;  // each block's cycles (plan.blocks' order): the samples and the exact parts
    double host_seconds = 0;
    double clock_mhz = 0;
    std::vector<StartCheck> start_checks;  // check_start's, when it ran (the caller sets them)
};

// Runs the plan's blocks on the timing model (`options`: no sink, probe or time series) and
// estimates. The blocks' runs share `options.programs` (docs/sampling.md, "Programs made once"), a
// new one when it is null; check_start does the same. The scene's buffers are lent to each run (not copied) and are back in `s` on return. Throws what run_pipeline throws, and std::logic_error when a run's statistics do
// not add up.
SampleResult run_sampled(scene::Scene& s, const SamplePlan& plan, const ParamSet& params,
                         const vs::Profile& profile, const sc::RunOptions& options, double z);

// The estimate of a stratified systematic sample (docs/sampling.md, "The estimate"): `exact` the
// sum of the blocks simulated whole, `strata` the sampled strata's values and their unit counts.
// A stratum with `aux` (each value's auxiliary variable: its vertices shaded) and `aux_total` (the
// auxiliary's sum over its `units`) is estimated by regression on it, N (ȳ + b (X̄ − x̄)), its
// variance N² Σ e² / (n (n − 2)) from the residuals e; without (or with fewer than 3 values, or
// every x alike), by the mean, N ȳ, variance N² s² / n.
struct Stratum {
    std::vector<double> values;
    uint64_t units = 0;
    std::vector<double> aux;
    double aux_total = 0;
};
// `bias`: the half-width adds bias × |the strata's part of the estimate| (SampleOptions::bias).
Estimate stratified_estimate(double exact, const std::vector<Stratum>& strata, double z, double bias = 0);

std::string sample_text(const std::string& scene, const SampleResult& r);
nlohmann::ordered_json sample_json(const std::string& scene, const SampleResult& r);

}  // namespace vpsim::study

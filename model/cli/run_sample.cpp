#include "model/cli/run_sample.h"

#include "model/cli/run_common.h"
#include "model/common/file_util.h"
#include "model/study/sample_stats.h"

#include <cstdio>
#include <limits>

namespace vpsim::cli {

void add_sample_options(CLI::App* c, SampleArgs& a) {
    CLI::Option* on = c->add_flag(
        "--sample", a.on,
        "Sampled simulation (docs/sampling.md): cut the scene into units of about --sample-unit references, simulate "
        "one unit in every --sample-period of each kind of phase (at a seeded random position) in detail after --sample-warmup references of warming, and print the "
        "estimated cycles with a 99.7 % interval (z = 3), the busy and stall shares and the share simulated in "
        "detail; refused (exit 2) for a scene too short to sample, phase changes it cannot bound, or patches");
    const auto range = CLI::Range(uint64_t(1), uint64_t(std::numeric_limits<uint32_t>::max()));
    c->add_option("--sample-unit", a.options.unit_refs,
                  "With --sample: references per sampling unit (default: the scene's references / 8000, within "
                  "96..1000)")
        ->type_name("N")
        ->check(range)
        ->needs(on);
    c->add_option("--sample-period", a.options.period,
                  "With --sample: measure one unit in every K of a kind of phase (the same draw state), at a random "
                  "position (default: about 30 samples)")
        ->type_name("K")
        ->check(range)
        ->needs(on);
    c->add_option("--sample-warmup", a.options.warmup,
                  "With --sample: references (whole units) simulated in detail before each measured unit to warm the "
                  "caches and queues (default 5000); a unit whose draw starts nearer is warmed from its draw's start "
                  "and output.order_queue references before it")
        ->type_name("N")
        ->check(CLI::Range(uint64_t(0), uint64_t(std::numeric_limits<uint32_t>::max())))
        ->needs(on);
    c->add_option("--sample-seed", a.options.seed, "With --sample: the seed of the units' random positions (default 1)")
        ->type_name("S")
        ->needs(on);
    c->add_flag("--sample-fallback", a.fallback,
                "With --sample: a scene sampling refuses runs whole in detail instead of exiting 2; the reason is "
                "printed on stderr and in the summary (summary.sampled false, summary.sample.refused), as `vpsim "
                "sweep --sample` runs its points")
        ->needs(on);
    for (const char* name : {"--vertices", "--vcd", "--trace", "--stats-interval", "--rtl", "--compare-model",
                             "--topology", "--topology-dot"})
        on->excludes(c->get_option(name));
}

void add_points_sample_options(CLI::App* c, SampleArgs& a, const std::string& what, const std::string& refused) {
    CLI::Option* on = c->add_flag(
        "--sample", a.on,
        "Run each " + what + " sampled (`vpsim run --sample`, docs/sampling.md \"In sweeps and why\"): its cycles and "
        "every unit's busy and stall cycles are estimates, each with its 99.7 % half-width beside it; " + refused);
    const auto range = CLI::Range(uint64_t(1), uint64_t(std::numeric_limits<uint32_t>::max()));
    c->add_option("--sample-unit", a.options.unit_refs, "With --sample: references per sampling unit, as vpsim run")
        ->type_name("N")
        ->check(range)
        ->needs(on);
    c->add_option("--sample-period", a.options.period, "With --sample: one unit in every K measured, as vpsim run")
        ->type_name("K")
        ->check(range)
        ->needs(on);
    c->add_option("--sample-warmup", a.options.warmup,
                  "With --sample: references of warming before each measured unit, as vpsim run (default 5000)")
        ->type_name("N")
        ->check(CLI::Range(uint64_t(0), uint64_t(std::numeric_limits<uint32_t>::max())))
        ->needs(on);
    c->add_option("--sample-seed", a.options.seed, "With --sample: the offsets' seed, as vpsim run (default 1)")
        ->type_name("S")
        ->needs(on);
}

std::vector<std::string> sample_run_args(const SampleArgs& a) {
    if (!a.on) return {};
    std::vector<std::string> r = {"--sample"};
    if (a.fallback) r.push_back("--sample-fallback");
    if (a.options.unit_refs) r.insert(r.end(), {"--sample-unit", std::to_string(a.options.unit_refs)});
    if (a.options.period) r.insert(r.end(), {"--sample-period", std::to_string(a.options.period)});
    r.insert(r.end(), {"--sample-warmup", std::to_string(a.options.warmup)});
    r.insert(r.end(), {"--sample-seed", std::to_string(a.options.seed)});
    return r;
}

int run_sample(scene::Scene s, const study::SamplePlan& plan, const ParamSet& params, const vs::Profile& profile,
               const sc::RunOptions& options, double z, const SampleOutput& out) {
    study::SampleResult r;
    try {
        r = study::run_sampled(s, plan, params, profile, options, z);
        r.start_checks = out.start_checks;
        for (const study::StartCheck& k : r.start_checks) {
            r.runs += k.runs;
            r.detail_references += k.detail_references;
        }
        if (!out.dir.empty()) {
            write_file_atomic(out.dir + "/config.json", out.config.dump(2) + "\n");
            write_file_atomic(out.dir + "/stats.json", study::sample_stats_json(s.name, r).dump(2) + "\n");
        }
    } catch (const std::exception& e) {
        return run_error_status(e);
    }
    if (out.quiet) return 0;
    const std::string text = out.json ? study::sample_json(s.name, r).dump(2) + "\n" : study::sample_text(s.name, r);
    std::fwrite(text.data(), 1, text.size(), stdout);
    return 0;
}

}  // namespace vpsim::cli

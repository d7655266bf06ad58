#include "model/cli/run_sample.h"

#include "model/cli/run_common.h"

#include <cstdio>
#include <limits>

namespace vpsim::cli {

void add_sample_options(CLI::App* c, SampleArgs& a) {
    CLI::Option* on = c->add_flag(
        "--sample", a.on,
        "Sampled simulation (docs/sampling.md): cut the scene into units of about --sample-unit references, simulate "
        "one unit in every --sample-period of each phase (at a seeded random position) in detail after --sample-warmup references of warming, and print the "
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
                  "With --sample: measure one unit in every K of a phase, at a random position (default: about 30 "
                  "samples)")
        ->type_name("K")
        ->check(range)
        ->needs(on);
    c->add_option("--sample-warmup", a.options.warmup,
                  "With --sample: references (whole units) simulated in detail before each measured unit to warm the "
                  "caches and queues (default 5000)")
        ->type_name("N")
        ->check(CLI::Range(uint64_t(0), uint64_t(std::numeric_limits<uint32_t>::max())))
        ->needs(on);
    c->add_option("--sample-seed", a.options.seed, "With --sample: the seed of each phase's random offset (default 1)")
        ->type_name("S")
        ->needs(on);
    for (const char* name : {"--vertices", "--vcd", "--trace", "--stats-interval", "--out", "--rtl", "--compare-model",
                             "--topology", "--topology-dot"})
        on->excludes(c->get_option(name));
}

int run_sample(scene::Scene s, const ParamSet& params, const vs::Profile& profile,
               const sc::RunOptions& options, const SampleArgs& a, bool json, bool quiet) {
    study::SampleResult r;
    try {
        const study::SamplePlan plan = study::plan_sampling(s, a.options);
        r = study::run_sampled(s, plan, params, profile, options, a.options.z);
    } catch (const study::SampleRefused& e) {
        std::fprintf(stderr, "vpsim run: --sample refused: %s\n", e.what());
        return 2;
    } catch (const std::exception& e) {
        return run_error_status(e);
    }
    if (quiet) return 0;
    const std::string out = json ? study::sample_json(s.name, r).dump(2) + "\n" : study::sample_text(s.name, r);
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace vpsim::cli

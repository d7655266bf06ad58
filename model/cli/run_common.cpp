#include "model/cli/run_common.h"

#include "model/bench/exec_bench.h"

#include "model/common/presets.h"
#include "model/sc/pipeline.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <stdexcept>

namespace vpsim::cli {

ff::Caps preset_caps(const std::string& preset, const std::vector<std::string>& sets) {
    ParamSet p = sc::default_params();
    if (!preset.empty()) apply_preset(p, preset);
    // Only the fixed-function caps reach a compiled program: any other unit's value would be
    // ignored, so it is refused (an option that does not apply is an error).
    for (const std::string& s : sets) {
        if (s.rfind("fixed_function.", 0) != 0)
            throw std::invalid_argument(fmt::format(
                "--set {}: only fixed_function.* parameters apply to the fixed-function caps (vpsim params "
                "fixed_function)",
                s));
        p.apply_set(s);
    }
    return sc::FixedFunctionParams::from(p).caps();
}

double median(std::vector<double> v) { return bench::median(std::move(v)); }

std::string mcps(double per_second) { return fmt::format("{:.2f} M/s", per_second / 1e6); }

int run_error_status(const std::exception& e) {
    std::fprintf(stderr, "vpsim run: %s\n", e.what());
    if (dynamic_cast<const scene::SceneError*>(&e)) return 1;
    if (dynamic_cast<const std::logic_error*>(&e)) return 3;
    return 2;
}


}  // namespace vpsim::cli

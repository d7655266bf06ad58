// Patch descriptions, profile, errors and segment counts (docs/tessellation.md).
#include "model/tess/tess_types.h"

#include <fmt/format.h>

#include <cmath>
#include <cstring>

namespace vpsim::tess {

const char* basis_name(Basis b) {
    switch (b) {
    case Basis::Bezier: return "BEZIER";
    case Basis::BSpline: return "BSPLINE";
    case Basis::Interpolate: return "INTERPOLATE";
    }
    return "?";
}

const char* order_name(Order o) {
    switch (o) {
    case Order::Linear: return "LINEAR";
    case Order::Quadratic: return "QUADRATIC";
    case Order::Cubic: return "CUBIC";
    case Order::Quintic: return "QUINTIC";
    }
    return "?";
}

namespace {
struct RuleName {
    const char* id;
    const char* name;
};
constexpr RuleName kRules[] = {
    {"T1", "basis-order"},    {"T2", "patch-size"},        {"T3", "quintic-cap"},   {"T4", "control-points"},
    {"T5", "num-vertices"},   {"T6", "handle-zero-null"},  {"T7", "unknown-handle"}, {"T8", "delete-unknown"},
    {"T9", "tessnormal-input"}, {"T10", "tessuv-tri"},     {"T11", "declaration"},  {"T12", "handle-kind"},
};
}  // namespace

const char* tess_rule_name(const std::string& rule) {
    for (const auto& r : kRules)
        if (rule == r.id) return r.name;
    return "?";
}

TessError::TessError(std::string rule_, const std::string& message)
    : std::runtime_error(fmt::format("{} ({}): {}", rule_, tess_rule_name(rule_), message)), rule(std::move(rule_)) {}

uint32_t segment_count(float segs, EdgeStyle style, const TessProfile& profile, std::string* warning,
                       bool* approximated) {
    const uint32_t max = profile.max_segments < 1 ? 1 : profile.max_segments;
    if (!(segs >= 1.0f)) {  // NaN or < 1
        if (warning) *warning = fmt::format("segment count {} is NaN or below 1: 1 is used", segs);
        return 1;
    }
    bool ceil_it = profile.rounding == TessProfile::Rounding::Ceil;
    if (style == EdgeStyle::Continuous) {
        if (approximated) *approximated = true;
        if (profile.continuous_round_up) ceil_it = true;
    }
    const float r = ceil_it ? std::ceil(segs) : std::trunc(segs);
    if (r >= float(max)) return max;
    return uint32_t(r);
}

}  // namespace vpsim::tess

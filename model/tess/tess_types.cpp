// Patch descriptions, profile, errors and segment counts (docs/tessellation.md).
#include "model/tess/tess_types.h"

#include "model/common/printable.h"

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
    {"T13", "size-limit"},
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

namespace {
bool parse_bool(const std::string& key, const std::string& v) {
    if (v == "true" || v == "1" || v == "on") return true;
    if (v == "false" || v == "0" || v == "off") return false;
    throw std::invalid_argument(
        fmt::format("tessellation option {}: expected true or false, found \"{}\"", key, printable(v)));
}
uint32_t parse_count(const std::string& key, const std::string& v, uint32_t lo, uint32_t hi) {
    // Digits only: strtoul would take "-1" (as 2^64-1) or " 7".
    uint64_t n = 0;
    bool ok = !v.empty() && v.size() <= 10;
    for (char c : v) {
        if (c < '0' || c > '9') ok = false;
        else n = n * 10 + uint64_t(c - '0');
    }
    if (!ok || n < lo || n > hi)
        throw std::invalid_argument(fmt::format("tessellation option {}: expected an integer {}..{}, found \"{}\"", key,
                                                lo, hi, printable(v)));
    return uint32_t(n);
}
}  // namespace

const char* tess_profile_help() {
    return "rounding=truncate|ceil, max-segments=64 (1..4096), max-vertices=131072 (1..268435456), "
           "transitions=true|false, "
           "continuous-round-up=true|false, winding=cw|ccw, catmull-rom-ends=reflect|duplicate, "
           "normal-normalize=true|false, normal-flip=false|true, normal-fallback=true|false, tessuv-on-tri=true|false, "
           "interpolate-constant-components=false|true, npatch-position-reg=0 (0..15), npatch-normal-reg=3 (0..15), "
           "npatch-renormalize=true|false, quintic-cap=true|false";
}

void set_tess_option(TessProfile& p, const std::string& kv) {
    const size_t eq = kv.find('=');
    if (eq == std::string::npos)
        throw std::invalid_argument(fmt::format("\"{}\": expected KEY=VALUE; keys: {}", kv, tess_profile_help()));
    const std::string k = kv.substr(0, eq), v = kv.substr(eq + 1);
    auto choice = [&](const char* a, const char* b) {
        if (v == a) return false;
        if (v == b) return true;
        throw std::invalid_argument(
            fmt::format("tessellation option {}: expected {} or {}, found \"{}\"", k, a, b, printable(v)));
    };
    if (k == "rounding")
        p.rounding = choice("truncate", "ceil") ? TessProfile::Rounding::Ceil : TessProfile::Rounding::Truncate;
    else if (k == "max-segments")
        p.max_segments = parse_count(k, v, 1, 4096);
    else if (k == "max-vertices")
        p.max_vertices = parse_count(k, v, 1, 268435456);
    else if (k == "transitions")
        p.transitions = parse_bool(k, v);
    else if (k == "continuous-round-up")
        p.continuous_round_up = parse_bool(k, v);
    else if (k == "winding")
        p.winding = choice("cw", "ccw") ? TessProfile::Winding::CounterClockwise : TessProfile::Winding::Clockwise;
    else if (k == "catmull-rom-ends")
        p.catmull_rom_ends =
            choice("reflect", "duplicate") ? TessProfile::CatmullRomEnds::Duplicate : TessProfile::CatmullRomEnds::Reflect;
    else if (k == "normal-normalize")
        p.normal_normalize = parse_bool(k, v);
    else if (k == "normal-flip")
        p.normal_flip = parse_bool(k, v);
    else if (k == "normal-fallback")
        p.normal_degenerate_fallback = parse_bool(k, v);
    else if (k == "tessuv-on-tri")
        p.tessuv_on_tri = parse_bool(k, v);
    else if (k == "interpolate-constant-components")
        p.interpolate_constant_components = parse_bool(k, v);
    else if (k == "npatch-position-reg")
        p.npatch_position_reg = parse_count(k, v, 0, 15);
    else if (k == "npatch-normal-reg")
        p.npatch_normal_reg = parse_count(k, v, 0, 15);
    else if (k == "npatch-renormalize")
        p.npatch_renormalize = parse_bool(k, v);
    else if (k == "quintic-cap")
        p.quintic_cap = parse_bool(k, v);
    else
        throw std::invalid_argument(
            fmt::format("unknown tessellation option \"{}\"; keys: {}", printable(k), tess_profile_help()));
}

}  // namespace vpsim::tess

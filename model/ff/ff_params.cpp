#include "model/ff/ff_params.h"

#include <fmt/format.h>

#include <cfloat>
#include <cmath>

namespace vpsim::ff {

std::optional<ParamError> check_light(uint32_t type, const Light& l) {
    if (type < 1 || type > 3)
        return ParamError{"type", fmt::format("D3DLIGHTTYPE {} is not a light type: expected POINT (1), SPOT (2) or "
                                              "DIRECTIONAL (3) (a zeroed D3DLIGHT8 has type 0, which SetLight refuses)",
                                              type)};
    const auto t = LightType(type);
    if (t != LightType::Directional) {
        const float max_range = std::sqrt(FLT_MAX);
        if (!(l.range >= 0.0f) || l.range > max_range)
            return ParamError{"range", fmt::format("{} is outside 0 .. sqrt(FLT_MAX) = {:g} (D3DLIGHT8: \"the maximum "
                                                   "allowable value for this member is the square root of FLT_MAX\")",
                                                   l.range, max_range)};
        const float att[3] = {l.attenuation0, l.attenuation1, l.attenuation2};
        for (int i = 0; i < 3; ++i)
            if (!(att[i] >= 0.0f))
                return ParamError{fmt::format("attenuation{}", i),
                                  fmt::format("{} is negative (D3DLIGHT8: valid values range from 0.0 to infinity)",
                                              att[i])};
        if (att[0] == 0.0f && att[1] == 0.0f && att[2] == 0.0f)
            return ParamError{"attenuation0",
                              "attenuation0, attenuation1 and attenuation2 are all 0 (D3DLIGHT8: for non-directional "
                              "lights they should not all be 0.0)"};
    }
    if (t != LightType::Point) {
        const double len2 = double(l.direction[0]) * l.direction[0] + double(l.direction[1]) * l.direction[1] +
                            double(l.direction[2]) * l.direction[2];
        if (!(len2 > 0.0))
            return ParamError{"direction", "the direction has zero length (D3DLIGHT8: it need not be normalized, but "
                                           "it should have a nonzero length)"};
    }
    if (t == LightType::Spot) {
        constexpr float kPi = 3.14159265358979323846f;
        if (!(l.phi >= 0.0f) || l.phi > kPi)
            return ParamError{"phi", fmt::format("{} is outside 0 .. pi (D3DLIGHT8: phi must be between 0 and pi)", l.phi)};
        if (!(l.theta >= 0.0f) || l.theta > l.phi)
            return ParamError{"theta", fmt::format("{} is outside 0 .. phi = {} (D3DLIGHT8: theta must be between 0 and "
                                                   "the value of phi)",
                                                   l.theta, l.phi)};
    }
    return std::nullopt;
}

std::optional<ParamError> check_viewport(const Viewport& v) {
    if (v.width == 0) return ParamError{"width", "a viewport 0 pixels wide"};
    if (v.height == 0) return ParamError{"height", "a viewport 0 pixels high"};
    // Any finite depth range: D3DVIEWPORT8 sets none ("typically 0.0 and 1.0"), and D3D8 accepts
    // MaxZ 7.5 (Wine's d3d8 depth_clamp_test, which passes on Windows; docs/capture.md).
    if (!std::isfinite(v.minz)) return ParamError{"minz", fmt::format("{} is not a finite depth", v.minz)};
    if (!std::isfinite(v.maxz)) return ParamError{"maxz", fmt::format("{} is not a finite depth", v.maxz)};
    return std::nullopt;
}

}  // namespace vpsim::ff

// The published configurations of ff_published.h as fixed-function states.
#include "model/ff/ff_published.h"

#include <cfloat>
#include <cmath>

namespace vpsim::ff {

namespace {

void load(FfInputs& in, uint32_t reg, uint8_t components) {
    in.loaded |= 1u << reg;
    in.components[reg] = components;
}

// A camera 10 units back looking down +z, turned 30 degrees about y (a rigid view: the lights
// can move to object space), and a 90-degree perspective projection.
FfState base_state() {
    FfState s;
    const float c = std::cos(0.5235988f), sn = std::sin(0.5235988f);
    s.view.m = {c, 0, -sn, 0, 0, 1, 0, 0, sn, 0, c, 0, 0, 0, 10, 1};
    s.projection.m = {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1.001001f, 1, 0, 0, -1.001001f, 0};
    s.material.diffuse = {0.8f, 0.8f, 0.8f, 1};
    s.material.specular = {1, 1, 1, 1};
    s.material.power = 20;
    return s;
}

Light white(LightType t) {
    Light l;
    l.type = t;
    l.diffuse = l.specular = {1, 1, 1, 1};
    l.direction = {0.3f, -1, 0.5f};
    l.attenuation0 = 1;
    l.range = std::sqrt(FLT_MAX);
    return l;
}

}  // namespace

std::vector<PublishedCount> published_counts() {
    std::vector<PublishedCount> out;
    FfInputs tex;  // D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_TEX1
    load(tex, kDePosition, 3);
    load(tex, kDeNormal, 3);
    load(tex, kDeTexcoord0, 2);
    {
        PublishedCount p{"transform, 1 directional light, 1 texture coordinate",
                         "Transform To Clip Space, Lit It With One Single Directional Light In World Space, Then Output "
                         "A Texture Coordinate | 7",
                         7,
                         "diffuse only, material colours, no ambient or emissive, D3D8's default render states",
                         base_state(), tex, Caps{}};
        p.state.lights[0] = {white(LightType::Directional), true};
        out.push_back(p);
    }
    {
        PublishedCount p{"transform, 1 specular directional light, 1 texture coordinate",
                         "Transform To Clip Space, Lit It With One Single Specular Light In World Space, Then Output A "
                         "Texture Coordinate | 18",
                         18,
                         "a directional light, SPECULARENABLE TRUE, power 20, LOCALVIEWER TRUE (D3D8's default)",
                         base_state(), tex, Caps{}};
        p.state.lights[0] = {white(LightType::Directional), true};
        p.state.rs.specularenable = true;
        out.push_back(p);
    }
    {
        FfInputs in;  // D3DFVF_XYZ | D3DFVF_NORMAL
        load(in, kDePosition, 3);
        load(in, kDeNormal, 3);
        PublishedCount p{"17 point lights",
                         "17 simple point light sources | 126",
                         126,
                         "\"simple\": diffuse only, attenuation (1, 0, 0), no range; the transform to clip space "
                         "included, no texture coordinate; MaxActiveLights raised to 17 for the count (D3D8's caps on "
                         "these chips allow 8)",
                         base_state(), in, Caps{}};
        p.caps.max_active_lights = 17;
        for (uint32_t i = 0; i < 17; ++i) {
            Light l = white(LightType::Point);
            l.position = {float(i % 5) - 2.0f, float(i / 5) - 1.5f, -3.0f};
            p.state.lights[i] = {l, true};
        }
        out.push_back(p);
    }
    return out;
}

}  // namespace vpsim::ff

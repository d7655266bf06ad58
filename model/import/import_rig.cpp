// The camera and the lights of an imported model: docs/import.md describes every choice made here.
#include "model/import/import_rig.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace vpsim::import::detail {

namespace {

Mat look_at_lh(aiVector3D eye, aiVector3D at, aiVector3D up) {
    aiVector3D z = (at - eye).Normalize();
    aiVector3D x = (up ^ z);
    if (x.Length() < 1e-6f) x = aiVector3D(0, 0, 1) ^ z;
    x.Normalize();
    const aiVector3D y = z ^ x;
    Mat m{};
    m[0] = {x.x, y.x, z.x, 0};
    m[1] = {x.y, y.y, z.y, 0};
    m[2] = {x.z, y.z, z.z, 0};
    m[3] = {-(x * eye), -(y * eye), -(z * eye), 1};
    return m;
}

Mat perspective_lh(float fovy, float aspect, float zn, float zf) {
    const float ys = 1.0f / std::tan(fovy / 2), xs = ys / aspect;
    Mat m{};
    m[0] = {xs, 0, 0, 0};
    m[1] = {0, ys, 0, 0};
    m[2] = {0, 0, zf / (zf - zn), 1};
    m[3] = {0, 0, -zn * zf / (zf - zn), 0};
    return m;
}

// The file's first camera, else the default rig framing the bounding box.
void camera(const aiScene* sa, const NodeTransforms& nodes, const aiVector3D& lo, const aiVector3D& hi, ImportLog& log,
            Rig& rig) {
    const aiVector3D centre = (lo + hi) * 0.5f;
    const float radius = std::max(0.5f * (hi - lo).Length(), 1e-6f);
    if (sa->mNumCameras > 0) {
        const aiCamera* c = sa->mCameras[0];
        const aiMatrix4x4 g = nodes.of(c->mName.C_Str());
        const aiVector3D eye = g * c->mPosition;
        aiMatrix3x3 g3(g);
        const aiVector3D look = g3 * c->mLookAt, up = g3 * c->mUp;
        rig.view = look_at_lh(eye, eye + look, up);
        const float aspect = c->mAspect > 0 ? c->mAspect : 4.0f / 3.0f;
        const float hfov = c->mHorizontalFOV > 0 ? c->mHorizontalFOV : kPi / 4;
        const float fovy = 2 * std::atan(std::tan(hfov / 2) / aspect);
        const float zn = c->mClipPlaneNear > 0 ? c->mClipPlaneNear : 0.1f;
        const float zf = c->mClipPlaneFar > zn ? c->mClipPlaneFar : zn * 1000;
        rig.proj = perspective_lh(fovy, aspect, zn, zf);
        rig.description["camera"] = fmt::format("the file's camera \"{}\"", c->mName.C_Str());
        if (sa->mNumCameras > 1) log.note(fmt::format("{} more cameras (the first is used)", sa->mNumCameras - 1));
    } else {
        const float fovy = kPi / 4, aspect = 4.0f / 3.0f;
        const float dist = radius / std::sin(fovy / 2) * 1.1f;
        const aiVector3D eye = centre - aiVector3D(0, 0, dist);
        rig.view = look_at_lh(eye, centre, aiVector3D(0, 1, 0));
        rig.proj = perspective_lh(fovy, aspect, std::max(dist - 2 * radius, dist * 0.01f), dist + 2 * radius);
        rig.description["camera"] = "default: 45-degree vertical field of view, 4:3, on the -z side of the bounding box's centre at 1.1 x radius / sin(22.5 deg), looking +z";
    }
}

// One of the file's lights as a D3DLIGHT8 (null when D3D8 has no such light type).
json light_json(const aiLight* L, const aiVector3D& pos, const aiVector3D& dirv) {
    json j;
    switch (L->mType) {
    case aiLightSource_DIRECTIONAL: j["type"] = "DIRECTIONAL"; break;
    case aiLightSource_POINT: j["type"] = "POINT"; break;
    case aiLightSource_SPOT: j["type"] = "SPOT"; break;
    default: return nullptr;
    }
    j["diffuse"] = json::array({L->mColorDiffuse.r, L->mColorDiffuse.g, L->mColorDiffuse.b, 1});
    j["specular"] = json::array({L->mColorSpecular.r, L->mColorSpecular.g, L->mColorSpecular.b, 1});
    j["ambient"] = json::array({L->mColorAmbient.r, L->mColorAmbient.g, L->mColorAmbient.b, 1});
    j["position"] = json::array({pos.x, pos.y, pos.z});
    j["direction"] = json::array({dirv.x, dirv.y, dirv.z});
    if (L->mType != aiLightSource_DIRECTIONAL) {
        float a0 = L->mAttenuationConstant, a1 = L->mAttenuationLinear, a2 = L->mAttenuationQuadratic;
        if (!(a0 >= 0) || !(a1 >= 0) || !(a2 >= 0) || a0 + a1 + a2 == 0) a0 = 1, a1 = 0, a2 = 0;
        j["range"] = 1e18;
        j["attenuation0"] = a0, j["attenuation1"] = a1, j["attenuation2"] = a2;
    }
    if (L->mType == aiLightSource_SPOT) {
        const float phi = std::clamp(L->mAngleOuterCone, 0.0f, kPi);
        j["phi"] = phi;
        j["theta"] = std::clamp(L->mAngleInnerCone, 0.0f, phi);
        j["falloff"] = 1.0;
    }
    return j;
}

// The file's lights (at most 8 enabled, MaxActiveLights), else one directional light.
void lights(const aiScene* sa, const NodeTransforms& nodes, ImportLog& log, Rig& rig, json& cmds) {
    uint32_t lights = 0;
    bool shader_light_set = false;
    for (unsigned l = 0; l < sa->mNumLights; ++l) {
        const aiLight* L = sa->mLights[l];
        const aiMatrix4x4 g = nodes.of(L->mName.C_Str());
        const aiMatrix3x3 g3(g);
        const aiVector3D pos = g * L->mPosition;
        aiVector3D dirv = g3 * L->mDirection;
        if (dirv.Length() < 1e-12f) dirv = aiVector3D(0, 0, 1);
        json j = light_json(L, pos, dirv);
        if (j.is_null()) {
            log.note(fmt::format("light {} (\"{}\"): type {} (D3D8 has point, spot and directional lights)", l,
                                 L->mName.C_Str(), int(L->mType)));
            continue;
        }
        if (lights >= 8) {
            log.note(fmt::format("light {} (\"{}\"): beyond MaxActiveLights 8", l, L->mName.C_Str()));
            continue;
        }
        if (L->mType == aiLightSource_DIRECTIONAL && !shader_light_set) {
            aiVector3D t = dirv;
            t.Normalize();
            t = -t;
            rig.shader_light = {t.x, t.y, t.z};
            rig.shader_diffuse = {L->mColorDiffuse.r, L->mColorDiffuse.g, L->mColorDiffuse.b};
            shader_light_set = true;
        }
        cmds.push_back({{"op", "SetLight"}, {"index", lights}, {"light", j}});
        cmds.push_back({{"op", "LightEnable"}, {"index", lights}, {"enable", true}});
        ++lights;
    }
    if (!shader_light_set) {
        const aiVector3D t = -aiVector3D(0.3f, -0.5f, 1.0f).Normalize();
        rig.shader_light = {t.x, t.y, t.z};
    }
    if (lights == 0) {
        cmds.push_back({{"op", "SetLight"}, {"index", 0},
                        {"light", {{"type", "DIRECTIONAL"}, {"diffuse", {1, 1, 1, 1}}, {"specular", {1, 1, 1, 1}},
                                   {"direction", {0.3, -0.5, 1.0}}}}});
        cmds.push_back({{"op", "LightEnable"}, {"index", 0}, {"enable", true}});
        rig.description["lights"] = "default: one white directional light along (0.3, -0.5, 1), ambient 0xFF202020";
    } else {
        rig.description["lights"] = fmt::format("{} of the file's lights, ambient 0xFF202020", lights);
    }
}

}  // namespace

Rig build_rig(const aiScene* s, const NodeTransforms& nodes, const aiVector3D& lo, const aiVector3D& hi,
              ImportLog& log, json& cmds) {
    Rig rig;
    camera(s, nodes, lo, hi, log, rig);
    cmds.push_back({{"op", "SetTransform"}, {"state", "VIEW"}, {"matrix", mat_json(rig.view)}});
    cmds.push_back({{"op", "SetTransform"}, {"state", "PROJECTION"}, {"matrix", mat_json(rig.proj)}});
    cmds.push_back({{"op", "SetRenderState"}, {"state", "LIGHTING"}, {"value", true}});
    cmds.push_back({{"op", "SetRenderState"}, {"state", "AMBIENT"}, {"value", "0xFF202020"}});
    lights(s, nodes, log, rig, cmds);
    return rig;
}

}  // namespace vpsim::import::detail

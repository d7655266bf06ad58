#include "model/scene/default_scene.h"

#include <fmt/format.h>

#include <array>
#include <cmath>

namespace vpsim::scene {

namespace {

using Mat = std::array<std::array<double, 4>, 4>;  // row-vector convention: p' = p * M

Mat mul(const Mat& a, const Mat& b) {
    Mat r{};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) r[i][j] += a[i][k] * b[k][j];
    return r;
}
Mat identity() {
    Mat m{};
    for (int i = 0; i < 4; ++i) m[i][i] = 1;
    return m;
}
Mat rot_x(double a) {
    Mat m = identity();
    m[1][1] = std::cos(a), m[1][2] = std::sin(a), m[2][1] = -std::sin(a), m[2][2] = std::cos(a);
    return m;
}
Mat rot_y(double a) {
    Mat m = identity();
    m[0][0] = std::cos(a), m[0][2] = -std::sin(a), m[2][0] = std::sin(a), m[2][2] = std::cos(a);
    return m;
}
// Rounded to 6 significant digits so the JSON is short and the same on every platform.
double r6(double x) { return std::stod(fmt::format("{:.6g}", x)); }
nlohmann::ordered_json column(const Mat& m, int c) {
    return nlohmann::ordered_json::array({r6(m[0][c]), r6(m[1][c]), r6(m[2][c]), r6(m[3][c])});
}

const char* const kProgram = R"(vs.1.1
; The default scene: transform, one directional light with a Blinn-Phong specular highlight
; (the normal renormalised with rsq, diffuse and specular from lit), linear fog.
; v0 position (FLOAT3)   v3 normal (SHORT4, unit normal * 32767)
; v5 diffuse (D3DCOLOR)  v7 texture coordinate (FLOAT2)
; c0..c3 world*view*projection (transposed)   c4 light direction (object space, towards the light)
; c5 light colour   c6 ambient   c7 world*view column 2 (eye-space z)
; c8 half vector (object space; directional light, viewer at infinity)
; c9 (fog end, 1 / (fog end - fog start), 0, 0)   c10 (1/32767, 0, 1, 0)
; c11 specular colour   c12.w specular power
mul r0.xyz, v3, c10.x          ; normal back to [-1, 1]
dp3 r0.w, r0, r0               ; |N|^2 (SHORT4 rounding leaves it a little off 1)
rsq r1.w, r0.w                 ; 1 / |N|            (scalar pipe, beside the transform)
m4x4 oPos, v0, c0
mul r0.xyz, r0, r1.w           ; unit normal
dp3 r1.x, r0, c4               ; N.L
dp3 r1.y, r0, c8               ; N.H
mov r1.w, c12.w                ; specular power
lit r2, r1                     ; (1, max(N.L, 0), N.H^power if N.L > 0, 1)   (scalar pipe)
dp4 r3.z, v0, c7               ; eye-space depth
mul r4, v5, c5                 ; vertex colour * light colour
mad oD0, r2.y, r4, c6          ; ambient + diffuse
mul oD1, r2.z, c11             ; specular
sub r3.x, c9.x, r3.z           ; fog end - z
mul oFog.x, r3.x, c9.y         ; (end - z) / (end - start)
mov oT0.xy, v7
)";

}  // namespace

nlohmann::ordered_json default_scene_json() {
    using oj = nlohmann::ordered_json;
    const double kPi = 3.14159265358979323846;
    const Mat world = mul(rot_y(30 * kPi / 180), rot_x(20 * kPi / 180));
    Mat view = identity();
    view[3][2] = 3;  // the camera at the origin looking down +z, the sphere 3 units away
    const double zn = 1, zf = 10, ys = 1 / std::tan(30 * kPi / 180), xs = ys / (4.0 / 3.0);
    Mat proj{};
    proj[0][0] = xs, proj[1][1] = ys, proj[2][2] = zf / (zf - zn), proj[2][3] = 1, proj[3][2] = -zn * zf / (zf - zn);
    const Mat wv = mul(world, view), wvp = mul(wv, proj);
    // Light direction (towards the light) in world space, normalised, then into object space (R^T).
    const double lw[3] = {-0.5 / std::sqrt(1.5), 0.5 / std::sqrt(1.5), -1 / std::sqrt(1.5)};
    double lo[3];
    for (int i = 0; i < 3; ++i) lo[i] = r6(lw[0] * world[i][0] + lw[1] * world[i][1] + lw[2] * world[i][2]);
    // The half vector between the light and the viewer (towards the eye: -z in world space, the
    // view being a translation), normalised, into object space.
    double hw[3] = {lw[0], lw[1], lw[2] - 1};
    const double hn = std::sqrt(hw[0] * hw[0] + hw[1] * hw[1] + hw[2] * hw[2]);
    for (double& h : hw) h /= hn;
    double ho[3];
    for (int i = 0; i < 3; ++i) ho[i] = r6(hw[0] * world[i][0] + hw[1] * world[i][1] + hw[2] * world[i][2]);

    const std::string decl = fmt::format(
        "D3DVSD_STREAM(0),\n"
        "D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),\n"
        "D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_SHORT4),\n"
        "D3DVSD_STREAM(1),\n"
        "D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR),\n"
        "D3DVSD_REG(D3DVSDE_TEXCOORD0, D3DVSDT_FLOAT2),\n"
        "D3DVSD_CONST(4, 3),\n"
        "  {}f, {}f, {}f, 0.0f,\n"
        "  1.0f, 0.95f, 0.8f, 1.0f,\n"
        "  0.15f, 0.15f, 0.2f, 1.0f,\n"
        "D3DVSD_CONST(8, 1), {}f, {}f, {}f, 0.0f,\n"
        "D3DVSD_CONST(10, 3),\n"
        "  3.0518509e-05f, 0.0f, 1.0f, 0.0f,\n"
        "  0.6f, 0.6f, 0.55f, 1.0f,\n"
        "  0.0f, 0.0f, 0.0f, 16.0f,\n"
        "D3DVSD_END()\n",
        lo[0], lo[1], lo[2], ho[0], ho[1], ho[2]);

    oj j;
    j["description"] =
        "The built-in default scene: a 100 x 100-vertex sphere (10,000 vertices, 19,602 triangles) in two streams, "
        "its triangles in meshoptimizer's cache order, drawn as one indexed triangle list with transform, a "
        "directional light with a specular highlight (rsq renormalisation, lit) and fog.";
    j["buffers"]["sphere"] = oj{
        {"generator", "sphere"},
        {"slices", 99},
        {"stacks", 99},
        {"radius", 1.0},
        {"indices", "INDEX16"},
        {"index_order", "optimised"},
        {"streams",
         {{"geometry",
           oj::array({oj{{"attribute", "position"}, {"type", "FLOAT3"}},
                      oj{{"attribute", "normal"}, {"type", "SHORT4"}, {"scale", 32767}}})},
          {"surface", oj::array({oj{{"attribute", "color"}, {"type", "D3DCOLOR"}},
                                 oj{{"attribute", "texcoord"}, {"type", "FLOAT2"}}})}}},
    };
    oj cmds = oj::array();
    cmds.push_back(oj{{"op", "CreateVertexShader"},
                      {"name", "transform_light_specular_fog"},
                      {"declaration", {{"text", decl}}},
                      {"function", {{"asm", kProgram}}}});
    cmds.push_back(oj{{"op", "SetVertexShader"}, {"shader", "transform_light_specular_fog"}});
    cmds.push_back(oj{{"op", "SetVertexShaderConstant"},
                      {"register", 0},
                      {"values", oj::array({column(wvp, 0), column(wvp, 1), column(wvp, 2), column(wvp, 3)})}});
    cmds.push_back(oj{{"op", "SetVertexShaderConstant"}, {"register", 7}, {"values", oj::array({column(wv, 2)})}});
    cmds.push_back(oj{{"op", "SetVertexShaderConstant"},
                      {"register", 9},
                      {"values", oj::array({oj::array({4.0, 0.5, 0.0, 0.0})})}});
    cmds.push_back(oj{{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", "sphere.geometry"}, {"stride", 20}});
    cmds.push_back(oj{{"op", "SetStreamSource"}, {"stream", 1}, {"buffer", "sphere.surface"}, {"stride", 12}});
    cmds.push_back(oj{{"op", "SetIndices"}, {"buffer", "sphere.indices"}, {"base_vertex", 0}});
    cmds.push_back(oj{{"op", "DrawIndexedPrimitive"},
                      {"type", "trianglelist"},
                      {"min_index", 0},
                      {"num_vertices", 10000},
                      {"start_index", 0},
                      {"primitive_count", 19602}});
    j["commands"] = cmds;
    return j;
}

Scene default_scene() {
    return parse_scene(nlohmann::json::parse(default_scene_json().dump()), "", "<default>");
}

}  // namespace vpsim::scene

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
; The default scene: transform, one directional light, linear fog.
; v0 position (FLOAT3)   v3 normal (SHORT4, unit normal * 32767)
; v5 diffuse (D3DCOLOR)  v7 texture coordinate (FLOAT2)
; c0..c3 world*view*projection (transposed)   c4 light direction (object space, towards the light)
; c5 light colour   c6 ambient   c7 world*view column 2 (eye-space z)
; c9 (fog end, 1 / (fog end - fog start), 0, 0)   c10 (1/32767, 0, 1, 0)
m4x4 oPos, v0, c0
mul r0.xyz, v3, c10.x          ; normal back to [-1, 1]
dp3 r1.x, r0, c4               ; N.L
max r1.x, r1.x, c10.y          ; max(N.L, 0)
mul r2, v5, c5                 ; vertex colour * light colour
mad oD0, r1.x, r2, c6          ; ambient + diffuse
dp4 r3.z, v0, c7               ; eye-space depth
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
        "D3DVSD_CONST(10, 1), 3.0518509e-05f, 0.0f, 1.0f, 0.0f,\n"
        "D3DVSD_END()\n",
        lo[0], lo[1], lo[2]);

    oj j;
    j["description"] =
        "The built-in default scene: a 100 x 100-vertex sphere (10,000 vertices, 19,602 triangles) in two streams, "
        "drawn as one indexed triangle list with transform, directional lighting and fog.";
    j["buffers"]["sphere"] = oj{
        {"generator", "sphere"},
        {"slices", 99},
        {"stacks", 99},
        {"radius", 1.0},
        {"indices", "INDEX16"},
        {"streams",
         {{"geometry",
           oj::array({oj{{"attribute", "position"}, {"type", "FLOAT3"}},
                      oj{{"attribute", "normal"}, {"type", "SHORT4"}, {"scale", 32767}}})},
          {"surface", oj::array({oj{{"attribute", "color"}, {"type", "D3DCOLOR"}},
                                 oj{{"attribute", "texcoord"}, {"type", "FLOAT2"}}})}}},
    };
    oj cmds = oj::array();
    cmds.push_back(oj{{"op", "CreateVertexShader"},
                      {"name", "transform_light_fog"},
                      {"declaration", {{"text", decl}}},
                      {"function", {{"asm", kProgram}}}});
    cmds.push_back(oj{{"op", "SetVertexShader"}, {"shader", "transform_light_fog"}});
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

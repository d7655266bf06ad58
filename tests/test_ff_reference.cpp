// The reference fixed-function processor (model/ff/ff_reference.h) against D3D8's documented
// equations and the Windows behaviours of docs/spec/fixed-function.md. Every expectation is
// computed by hand from the equation named in docs/fixed-function.md (the arithmetic is in the
// comments); none is the code's own output.
#include "model/ff/ff_reference.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <initializer_list>
#include <random>
#include <string>

using namespace vpsim::ff;
using vpsim::vs::VertexOutputs;

namespace {

const float kPi = 3.14159265358979f;

Matrix rows(std::initializer_list<float> values) {
    Matrix m;
    size_t i = 0;
    for (float f : values) m.m[i++] = f;
    REQUIRE(i == 16);
    return m;
}
Matrix translation(float x, float y, float z) { return rows({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, y, z, 1}); }
Matrix scaling(float x, float y, float z) { return rows({x, 0, 0, 0, 0, y, 0, 0, 0, 0, z, 0, 0, 0, 0, 1}); }
// Row-vector rotation by 90 degrees about z: (1,0,0) -> (0,1,0), (0,1,0) -> (-1,0,0).
Matrix rot_z90() { return rows({0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1}); }

// One vertex: the registers the declaration loads, as the fetch delivers them.
struct Vertex {
    FfInputs in;
    FfRegisters v{};
    Vertex& set(uint32_t reg, Vec4 value, uint8_t components) {
        in.loaded |= 1u << reg;
        in.components[reg] = components;
        v[reg] = value;
        return *this;
    }
};
Vertex at(float x, float y, float z) { return Vertex{}.set(kDePosition, {x, y, z, 1}, 3); }
Vertex lit_at(float x, float y, float z, Vec3 n) {
    Vertex vx = at(x, y, z);
    vx.set(kDeNormal, {n[0], n[1], n[2], 1}, 3);
    return vx;
}

Light directional(Vec3 direction, Color diffuse) {
    Light l;
    l.type = LightType::Directional;
    l.direction = direction;
    l.diffuse = diffuse;
    return l;
}
Light point(Vec3 position, float range, float a0, float a1, float a2) {
    Light l;
    l.type = LightType::Point;
    l.position = position;
    l.range = range;
    l.attenuation0 = a0;
    l.attenuation1 = a1;
    l.attenuation2 = a2;
    return l;
}
void add_light(FfState& s, uint32_t index, const Light& l, bool enabled = true) { s.lights[index] = {l, enabled}; }

// A state that lights with material diffuse white and nothing else.
FfState white_material() {
    FfState s;
    s.material.diffuse = {1, 1, 1, 1};
    return s;
}

VertexOutputs run(const FfState& s, const Vertex& vx, const Caps& caps = Caps{}) {
    check_drawable(s, vx.in, caps);
    return process_vertex(s, vx.in, vx.v, caps);
}

void check_vec(const Vec4& got, const Vec4& want, const char* what) {
    for (size_t i = 0; i < 4; ++i) {
        INFO(what << "[" << i << "]: got (" << got[0] << ", " << got[1] << ", " << got[2] << ", " << got[3]
                  << "), want (" << want[0] << ", " << want[1] << ", " << want[2] << ", " << want[3] << ")");
        CHECK(got[i] == Approx(want[i]).margin(2e-6).epsilon(2e-6));
    }
}
#define CHECK_VEC(got, ...) check_vec(got, Vec4{__VA_ARGS__}, #got)

template <typename F>
std::string refusal(F&& f) {
    try {
        f();
    } catch (const FfError& e) {
        return e.what();
    }
    return "(no error)";
}

}  // namespace

// ================================================================ transform

TEST_CASE("The position goes through world, view and projection into clip space", "[ff][transform]") {
    FfState s;
    s.world[0] = translation(1, 2, 3);
    s.view = scaling(2, 2, 2);
    s.projection = rows({1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 0.5f, 1, 0, 0, -0.5f, 0});
    s.rs.lighting = false;
    // (1,1,1) -> world (2,3,4) -> camera (4,6,8,1) -> clip (4, 12, 8*0.5 - 0.5, 8).
    CHECK_VEC(run(s, at(1, 1, 1)).pos, 4, 12, 3.5f, 8);
}

TEST_CASE("A FLOAT4 position's w takes part in the transform", "[ff][transform]") {
    FfState s;
    s.world[0] = translation(1, 2, 3);
    s.rs.lighting = false;
    Vertex vx = Vertex{}.set(kDePosition, {1, 1, 1, 2}, 4);
    // (1,1,1,2) * translate = (1 + 2*1, 1 + 2*2, 1 + 2*3, 2).
    CHECK_VEC(run(s, vx).pos, 3, 5, 7, 2);
}

// ================================================================ vertex blending

TEST_CASE("1WEIGHTS blends two world matrices, the second weighted by one minus the first", "[ff][blend]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights1;
    s.world[0] = translation(10, 0, 0);
    s.world[1] = translation(0, 20, 0);
    Vertex vx = at(1, 1, 1).set(kDeBlendWeight, {0.25f, 0, 0, 1}, 1);
    // 0.25 * (11,1,1,1) + 0.75 * (1,21,1,1) = (3.5, 16, 1, 1).
    CHECK_VEC(run(s, vx).pos, 3.5f, 16, 1, 1);
}

TEST_CASE("3WEIGHTS blends four world matrices, the fourth weight one minus the three others", "[ff][blend]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights3;
    s.world[0] = translation(1, 0, 0);
    s.world[1] = translation(0, 1, 0);
    s.world[2] = translation(0, 0, 1);
    s.world[3] = translation(8, 8, 8);
    Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.1f, 0.2f, 0.3f, 1}, 3);
    // 0.1 (1,0,0) + 0.2 (0,1,0) + 0.3 (0,0,1) + 0.4 (8,8,8) = (3.3, 3.4, 3.5).
    CHECK_VEC(run(s, vx).pos, 3.3f, 3.4f, 3.5f, 1);
}

TEST_CASE("2WEIGHTS reads two weights and ignores a third the declaration carries", "[ff][blend]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights2;
    s.world[0] = translation(1, 0, 0);
    s.world[1] = translation(0, 1, 0);
    s.world[2] = translation(0, 0, 1);
    s.world[3] = translation(100, 100, 100);
    Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.5f, 0.25f, 0.9f, 1}, 3);
    // 0.5 (1,0,0) + 0.25 (0,1,0) + (1 - 0.75) (0,0,1).
    CHECK_VEC(run(s, vx).pos, 0.5f, 0.25f, 0.25f, 1);
}

TEST_CASE("0WEIGHTS uses WORLDMATRIX(0) alone with weight 1", "[ff][blend]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights0;
    s.world[0] = translation(1, 0, 0);
    s.world[1] = translation(5, 0, 0);
    Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.5f, 0, 0, 1}, 1);
    CHECK_VEC(run(s, vx).pos, 1, 0, 0, 1);
}

TEST_CASE("Indexed blending takes the world matrices the UBYTE4 indices name", "[ff][blend]") {
    FfState s;
    Caps caps;
    caps.max_vertex_blend_matrix_index = 255;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights1;
    s.rs.indexedvertexblendenable = true;
    s.world[0] = translation(100, 0, 0);
    s.world[1] = translation(0, 100, 0);
    s.world[5] = translation(10, 0, 0);
    s.world[9] = translation(0, 10, 0);
    Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.3f, 0, 0, 1}, 1).set(kDeBlendIndices, {5, 9, 0, 0}, 4);
    // 0.3 * WORLDMATRIX(5) + 0.7 * WORLDMATRIX(9) applied to the origin.
    CHECK_VEC(run(s, vx, caps).pos, 3, 7, 0, 1);

    SECTION("with 0WEIGHTS, the first index names the one matrix") {
        s.rs.vertexblend = VertexBlend::Weights0;
        s.world[7] = translation(0, 0, 4);
        vx.set(kDeBlendIndices, {7, 9, 0, 0}, 4);
        CHECK_VEC(run(s, vx, caps).pos, 0, 0, 4, 1);
    }
    SECTION("with DISABLE, the indices are not read: WORLDMATRIX(0)") {
        s.rs.vertexblend = VertexBlend::Disable;
        CHECK_VEC(run(s, vx, caps).pos, 100, 0, 0, 1);
    }
}

TEST_CASE("A vertex whose blend index exceeds MaxVertexBlendMatrixIndex is refused", "[ff][blend][caps]") {
    FfState s;
    Caps caps;
    caps.max_vertex_blend_matrix_index = 8;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights1;
    s.rs.indexedvertexblendenable = true;
    Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.3f, 0, 0, 1}, 1).set(kDeBlendIndices, {8, 9, 0, 0}, 4);
    check_drawable(s, vx.in, caps);  // the state itself is drawable
    const std::string e = refusal([&] { process_vertex(s, vx.in, vx.v, caps); });
    CHECK_THAT(e, Catch::Contains("outside 0..8 (the device's MaxVertexBlendMatrixIndex)"));
    CHECK_THAT(e, Catch::Contains("blend matrix index 9 (BLENDINDICES component 1)"));
    vx.set(kDeBlendIndices, {8, 0, 0, 0}, 4);
    CHECK_NOTHROW(process_vertex(s, vx.in, vx.v, caps));
}

TEST_CASE("Blended normals go through each world-view matrix and are weighted like positions", "[ff][blend][lighting]") {
    FfState s = white_material();
    s.rs.vertexblend = VertexBlend::Weights1;
    s.world[1] = rot_z90();
    add_light(s, 0, directional({-1, 0, 0}, {1, 1, 1, 1}));  // L = (1,0,0)
    Vertex vx = lit_at(0, 0, 0, {1, 0, 0}).set(kDeBlendWeight, {0.5f, 0, 0, 1}, 1);
    // N = 0.5 (1,0,0) + 0.5 (0,1,0) = (0.5, 0.5, 0); N.L = 0.5 (not renormalised).
    CHECK_VEC(run(s, vx).d0, 0.5f, 0.5f, 0.5f, 1);
    s.rs.normalizenormals = true;  // N = (0.70711, 0.70711, 0)
    CHECK_VEC(run(s, vx).d0, 0.7071068f, 0.7071068f, 0.7071068f, 1);
}

// ================================================================ normal transform

TEST_CASE("Normals without blending go through the inverse transpose of the world-view matrix", "[ff][transform][lighting]") {
    // A non-uniform scale makes the inverse transpose and the matrix itself differ: N = (1,1,0)/sqrt2
    // through diag(0.5,1,1) (the inverse transpose of diag(2,1,1)) is (1,2,0)/sqrt5 after
    // normalising; the matrix itself would give (2,1,0)/sqrt5.
    FfState s = white_material();
    s.world[0] = scaling(2, 1, 1);
    s.rs.normalizenormals = true;
    add_light(s, 0, directional({-1, 0, 0}, {1, 1, 1, 1}));  // L = (1,0,0)
    const float h = std::sqrt(0.5f);
    const float want = 1.0f / std::sqrt(5.0f);  // 0.447214 (the matrix itself: 0.894427)
    CHECK_VEC(run(s, lit_at(0, 0, 0, {h, h, 0})).d0, want, want, want, 1);
}

TEST_CASE("A non-uniform scale in the view matrix also goes through the inverse transpose", "[ff][transform][lighting]") {
    // WORLD * VIEW = diag(1,1,4): N = (0,1,1)/sqrt2 becomes (0,1,0.25) before normalising; L = (0,0,1).
    FfState s = white_material();
    s.view = scaling(1, 1, 4);
    s.rs.normalizenormals = true;
    add_light(s, 0, directional({0, 0, -1}, {1, 1, 1, 1}));
    const float h = std::sqrt(0.5f);
    const float want = 0.25f / std::sqrt(1.0625f);  // 0.242536
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, h, h})).d0, want, want, want, 1);
}

TEST_CASE("Blended normals go through each world-view matrix itself", "[ff][transform][lighting][blend]") {
    // 0WEIGHTS blends one matrix with weight 1: the blending rule (Wine's and nine's, choice 1),
    // not the inverse transpose: (1,1,0)/sqrt2 through diag(2,1,1) normalises to (2,1,0)/sqrt5.
    FfState s = white_material();
    s.world[0] = scaling(2, 1, 1);
    s.rs.normalizenormals = true;
    s.rs.vertexblend = VertexBlend::Weights0;
    add_light(s, 0, directional({-1, 0, 0}, {1, 1, 1, 1}));
    const float h = std::sqrt(0.5f);
    const float want = 2.0f / std::sqrt(5.0f);  // 0.894427
    CHECK_VEC(run(s, lit_at(0, 0, 0, {h, h, 0})).d0, want, want, want, 1);
}

TEST_CASE("Wine's lit quad with a non-affine world matrix is black", "[ff][transform][lighting]") {
    // Wine's d3d8 conformance test lighting_test, "Lit quad with non-affine matrix" (black on
    // Windows): world rows (1,0,0,0) (0,1,0,0) (0,0,1,-1) (10,10,10,0), view and projection the
    // identity, D3D's default light (white, direction (0,0,1)) and material, the diffuse colour
    // from the vertex (0xff0000ff), normal (0,0,-1). The 4x4 inverse transpose turns the normal away
    // from the light; the upper 3x3 alone would light the quad blue.
    FfState s;
    s.world[0] = rows({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1, 10, 10, 10, 0});
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 0}));
    Vertex vx = lit_at(-10, -10, -10, {0, 0, -1}).set(kDeDiffuse, {0, 0, 1, 1}, 4);
    const VertexOutputs o = run(s, vx);
    CHECK_VEC(o.d0, 0, 0, 0, 1);
    CHECK_VEC(o.pos, 0, 0, 0, 10);  // the quad's centre: (x + 10, y + 10, z + 10, -z)
}

TEST_CASE("A singular world-view matrix lights normals through its own upper 3x3", "[ff][transform][lighting]") {
    // No inverse exists: Wine's rule (the matrix unchanged). diag(2,1,0) keeps N = (1,0,0) -> (2,0,0).
    FfState s = white_material();
    s.world[0] = scaling(2, 1, 0);
    add_light(s, 0, directional({-1, 0, 0}, {0.25f, 0.25f, 0.25f, 1}));  // L = (1,0,0)
    CHECK_VEC(run(s, lit_at(0, 0, 0, {1, 0, 0})).d0, 0.5f, 0.5f, 0.5f, 1);
}

TEST_CASE("Without NORMALIZENORMALS a scaled world scales the diffuse term", "[ff][lighting]") {
    FfState s = white_material();
    s.world[0] = scaling(0.5f, 0.5f, 0.5f);
    add_light(s, 0, directional({0, 0, 1}, {0.3f, 0.3f, 0.3f, 1}));  // L = (0,0,-1)
    // The inverse transpose of diag(0.5) is diag(2): N = (0,0,-2), N.L = 2, diffuse 2 * 0.3.
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.6f, 0.6f, 0.6f, 1);
    s.rs.normalizenormals = true;
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.3f, 0.3f, 0.3f, 1);
}

// ================================================================ tweening

TEST_CASE("Tweening blends POSITION and POSITION2 by TWEENFACTOR", "[ff][tween]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Tweening;
    s.rs.tweenfactor = 0.25f;
    s.world[0] = translation(0, 0, 10);
    Vertex vx = at(0, 0, 0).set(kDePosition2, {4, 8, -2, 1}, 3);
    // 0.75 (0,0,0) + 0.25 (4,8,-2) = (1, 2, -0.5), then the world matrix.
    CHECK_VEC(run(s, vx).pos, 1, 2, 9.5f, 1);
}

TEST_CASE("Tweening blends NORMAL and NORMAL2 likewise, and without NORMAL2 the normal is NORMAL", "[ff][tween][lighting]") {
    FfState s = white_material();
    s.rs.vertexblend = VertexBlend::Tweening;
    s.rs.tweenfactor = 0.5f;
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 1}));  // L = (0,0,-1)
    Vertex vx = lit_at(0, 0, 0, {0, 0, -1}).set(kDePosition2, {0, 0, 0, 1}, 3);
    CHECK_VEC(run(s, vx).d0, 1, 1, 1, 1);
    vx.set(kDeNormal2, {1, 0, 0, 1}, 3);
    // N = 0.5 (0,0,-1) + 0.5 (1,0,0) = (0.5, 0, -0.5): N.L = 0.5.
    CHECK_VEC(run(s, vx).d0, 0.5f, 0.5f, 0.5f, 1);
}

// ================================================================ lighting

TEST_CASE("The global ambient colour lights the material's ambient colour", "[ff][lighting]") {
    FfState s;
    s.rs.ambient = 0x00804020;  // (128, 64, 32) / 255
    s.material.ambient = {0.5f, 1, 1, 1};
    s.material.diffuse = {0, 0, 0, 0.75f};
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.5f * 128 / 255, 64.0f / 255, 32.0f / 255, 0.75f);
}

TEST_CASE("A directional light's diffuse term is Cd * Ld * (N.L), with L towards the light", "[ff][lighting]") {
    FfState s;
    s.material.diffuse = {0.8f, 0.8f, 0.8f, 1};
    // direction (0, sqrt3/2, 1/2): L = (0, -sqrt3/2, -1/2); with N = (0,0,-1), N.L = 0.5.
    add_light(s, 0, directional({0, std::sqrt(3.0f) / 2, 0.5f}, {1, 0.5f, 0.25f, 1}));
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.4f, 0.2f, 0.1f, 1);
}

TEST_CASE("A directional light's direction is taken to camera space by the view matrix", "[ff][lighting]") {
    FfState s = white_material();
    s.view = rot_z90();
    add_light(s, 0, directional({-1, 0, 0}, {1, 1, 1, 1}));  // world L = (1,0,0): camera L = (0,1,0)
    // The world normal (1,0,0) is also (0,1,0) in camera space: N.L = 1; the normal (0,1,0)
    // becomes (-1,0,0): N.L = 0.
    CHECK_VEC(run(s, lit_at(0, 0, 0, {1, 0, 0})).d0, 1, 1, 1, 1);
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 1, 0})).d0, 0, 0, 0, 1);
}

TEST_CASE("D3D's default light (what LightEnable gives an unset index) is white, directional along +z", "[ff][lighting]") {
    FfState s = white_material();
    add_light(s, 4, Light::d3d_default());
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 1, 1, 1, 1);  // L = (0,0,-1): N.L = 1
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, 1})).d0, 0, 0, 0, 1);
}

TEST_CASE("A light behind the surface adds no diffuse, but its ambient remains", "[ff][lighting]") {
    FfState s = white_material();
    s.material.ambient = {1, 1, 1, 1};
    Light l = directional({0, 0, -1}, {1, 1, 1, 1});  // L = (0,0,1): N.L = -1
    l.ambient = {0.1f, 0.2f, 0.3f, 1};
    add_light(s, 0, l);
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.1f, 0.2f, 0.3f, 1);
}

TEST_CASE("The lit diffuse colour is emissive + Ca (Ga + sum La) + sum Cd Ld (N.L)", "[ff][lighting]") {
    FfState s;
    s.rs.ambient = 0x00333333;  // 0.2
    s.material.emissive = {0.25f, 0.125f, 0, 0.9f};
    s.material.ambient = {0.5f, 0.5f, 0.5f, 1};
    s.material.diffuse = {0.5f, 0.25f, 1, 0.6f};
    Light l0 = directional({0, 0, 1}, {0.5f, 0.5f, 0.5f, 1});  // N.L = 1
    l0.ambient = {0.2f, 0, 0, 1};
    Light l1 = directional({0, 0, 1}, {0.25f, 0.25f, 0.25f, 1});
    add_light(s, 0, l0);
    add_light(s, 7, l1);
    add_light(s, 3, directional({0, 0, 1}, {5, 5, 5, 1}), false);  // disabled: no effect
    // ambient: 0.5 * (0.2 + 0.2, 0.2, 0.2) = (0.2, 0.1, 0.1)
    // diffuse: (0.5, 0.25, 1) * 0.75 = (0.375, 0.1875, 0.75)
    // + emissive (0.25, 0.125, 0): (0.825, 0.4125, 0.85); alpha the diffuse alpha 0.6.
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.825f, 0.4125f, 0.85f, 0.6f);
}

TEST_CASE("A point light is attenuated by 1/(a0 + a1 d + a2 d^2) at its camera-space distance", "[ff][lighting]") {
    FfState s;
    s.view = translation(0, 0, 5);  // vertex at camera (0,0,5), light at camera (0,0,1): d = 4
    s.material.diffuse = {0.7f, 0.7f, 0.7f, 1};
    s.material.ambient = {1, 1, 1, 1};
    Light l = point({0, 0, -4}, 10, 1, 0.5f, 0.25f);  // 1 / (1 + 2 + 4) = 1/7
    l.diffuse = {1, 1, 1, 1};
    l.ambient = {0.7f, 0, 0, 1};
    add_light(s, 0, l);
    // diffuse 0.7 * 1 * (N.L = 1) / 7 = 0.1; ambient (0.7, 0, 0) / 7 = (0.1, 0, 0).
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.2f, 0.1f, 0.1f, 1);

    SECTION("a light exactly at its range still lights") {
        s.lights[0].light.range = 4;
        CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.2f, 0.1f, 0.1f, 1);
    }
}

TEST_CASE("A point light beyond its range contributes nothing, ambient included", "[ff][lighting]") {
    FfState s;
    s.material.diffuse = {0.7f, 0.7f, 0.7f, 1};
    s.material.ambient = {1, 1, 1, 1};
    s.material.specular = {1, 1, 1, 1};
    s.rs.specularenable = true;
    Light l = point({0, 0, -4}, 3.99f, 1, 0, 0);
    l.diffuse = l.ambient = l.specular = {1, 1, 1, 1};
    add_light(s, 0, l);
    const VertexOutputs o = run(s, lit_at(0, 0, 0, {0, 0, -1}));
    CHECK_VEC(o.d0, 0, 0, 0, 1);
    CHECK_VEC(o.d1, 0, 0, 0, 1);
}

TEST_CASE("Directional lights have attenuation 1 and no range", "[ff][lighting]") {
    FfState s = white_material();
    Light l = directional({0, 0, 1}, {0.5f, 0.5f, 0.5f, 1});
    l.range = 0;  // ignored, as are the attenuation members (all 0)
    l.position = {0, 0, 1000};
    add_light(s, 0, l);
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 0.5f, 0.5f, 0.5f, 1);
}

TEST_CASE("A spotlight's factor: 1 inside theta/2, 0 outside phi/2, a falloff power between", "[ff][lighting][spot]") {
    FfState s = white_material();
    s.material.ambient = {1, 1, 1, 1};
    Light l;
    l.type = LightType::Spot;
    l.position = {0, 0, -1};  // d = 1, light-to-vertex (0,0,1), L = (0,0,-1), N.L = 1
    l.range = 100;
    l.attenuation0 = 1;
    l.theta = kPi / 3;      // full angle 60 degrees: cos 30 = 0.866025
    l.phi = 2 * kPi / 3;    // full angle 120 degrees: cos 60 = 0.5
    l.falloff = 2;
    l.diffuse = {0.5f, 0.5f, 0.5f, 1};
    l.ambient = {0.25f, 0, 0, 1};
    const Vertex vx = lit_at(0, 0, 0, {0, 0, -1});

    SECTION("inside the inner cone: full light") {
        l.direction = {0, 0, 1};  // rho = 1
        add_light(s, 0, l);
        CHECK_VEC(run(s, vx).d0, 0.75f, 0.5f, 0.5f, 1);
    }
    SECTION("between the cones: ((rho - cos(phi/2)) / (cos(theta/2) - cos(phi/2)))^falloff, ambient too") {
        l.direction = {1, 0, 1};  // not unit: normalised, rho = cos 45 = 0.707107
        add_light(s, 0, l);
        // (0.207107 / 0.366025)^2 = 0.565826^2 = 0.320159
        const float spot = 0.3201588f;
        CHECK_VEC(run(s, vx).d0, 0.5f * spot + 0.25f * spot, 0.5f * spot, 0.5f * spot, 1);
        s.lights[0].light.falloff = 1;
        const float lin = 0.5658262f;
        CHECK_VEC(run(s, vx).d0, 0.75f * lin, 0.5f * lin, 0.5f * lin, 1);
    }
    SECTION("the spot factor scales the specular term too") {
        l.direction = {1, 0, 1};
        l.specular = {1, 1, 1, 1};
        add_light(s, 0, l);
        s.rs.specularenable = true;
        s.rs.localviewer = false;  // H = (0,0,-1): N.H = 1
        s.material.specular = {1, 1, 1, 1};
        s.material.power = 5;
        CHECK_VEC(run(s, vx).d1, 0.3201588f, 0.3201588f, 0.3201588f, 1);
    }
    SECTION("outside the outer cone: nothing, ambient included") {
        l.direction = {1, 0, 0.2f};  // rho = 0.196 < 0.5
        add_light(s, 0, l);
        CHECK_VEC(run(s, vx).d0, 0, 0, 0, 1);
    }
}

TEST_CASE("Specular with a local viewer uses the half vector towards the eye, and non-local uses (0,0,-1)", "[ff][lighting][specular]") {
    FfState s;
    s.world[0] = translation(3, 0, 4);  // camera-space vertex (3,0,4), 5 from the eye
    s.rs.specularenable = true;
    s.material.specular = {0.5f, 0.5f, 0.5f, 0.25f};
    s.material.power = 10;
    Light l = directional({0, 0, 1}, {0, 0, 0, 0});  // L = (0,0,-1)
    l.specular = {1, 1, 1, 1};
    add_light(s, 0, l);
    // Local: E = (-0.6, 0, -0.8); H = norm(L + E) = (-0.6, 0, -1.8)/sqrt(3.6); N.H = 1.8/sqrt(3.6)
    // = sqrt(0.9); (N.H)^10 = 0.9^5 = 0.59049; Cs * that = 0.295245. Alpha: the source's, 0.25.
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d1, 0.295245f, 0.295245f, 0.295245f, 0.25f);
    s.rs.localviewer = false;  // H = norm((0,0,-1) + (0,0,-1)) = (0,0,-1): N.H = 1
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d1, 0.5f, 0.5f, 0.5f, 0.25f);
}

TEST_CASE("No specular where N.L <= 0, even at power 0", "[ff][lighting][specular]") {
    FfState s;
    s.rs.specularenable = true;
    s.rs.localviewer = false;
    s.material.specular = {1, 1, 1, 1};
    s.material.power = 0;  // (N.H)^0 = 1 wherever the gate lets it through
    Light l = directional({0, 0, -1}, {0, 0, 0, 0});  // L = (0,0,1): behind N = (0,0,-1)
    l.specular = {0.5f, 0.5f, 0.5f, 1};
    add_light(s, 0, l);
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d1, 0, 0, 0, 1);
    s.lights[0].light.direction = {0, 0.1f, 1};  // now N.L > 0
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d1, 0.5f, 0.5f, 0.5f, 1);
}

TEST_CASE("No specular where N.H <= 0 although N.L > 0", "[ff][lighting][specular]") {
    // The eye sees the back of the surface: N = (0,0,1) at (0,0,5), E = (0,0,-1); a grazing light
    // L = (0.995, 0, 0.0998) has N.L > 0 but N.H < 0. (N.H)^P is undefined there; vpsim, like
    // lit, Wine and nine, adds nothing (power 0 would otherwise give 1).
    FfState s;
    s.world[0] = translation(0, 0, 5);
    s.rs.specularenable = true;
    s.material.specular = {1, 1, 1, 1};
    s.material.power = 0;
    Light l = directional({-0.995f, 0, -0.0998f}, {0, 0, 0, 0});
    l.specular = {1, 1, 1, 1};
    add_light(s, 0, l);
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, 1})).d1, 0, 0, 0, 1);
}

TEST_CASE("With SPECULARENABLE FALSE and lighting on, the vertex's specular colour passes through", "[ff][lighting][specular]") {
    FfState s;
    s.material.specular = {1, 1, 1, 1};
    s.material.power = 1;
    Light l = directional({0, 0, 1}, {0, 0, 0, 0});
    l.specular = {1, 1, 1, 1};
    add_light(s, 0, l);
    Vertex vx = lit_at(0, 0, 0, {0, 0, -1});
    CHECK_VEC(run(s, vx).d1, 0, 0, 0, 0);  // no SPECULAR register: (0,0,0,0)
    vx.set(kDeSpecular, {0.2f, 0.4f, 0.6f, 0.8f}, 4);
    CHECK_VEC(run(s, vx).d1, 0.2f, 0.4f, 0.6f, 0.8f);
}

TEST_CASE("The lit specular colour is Cs * sum Ls (N.H)^P * Atten * Spot, its alpha the source's", "[ff][lighting][specular]") {
    FfState s;
    s.view = translation(0, 0, 5);
    s.rs.specularenable = true;
    s.rs.localviewer = false;
    s.material.power = 3;
    s.material.specular = {1, 0.5f, 0.25f, 0.4f};
    Light pl = point({0, 0, -4}, 10, 2, 0, 0);  // atten 1/2, L = (0,0,-1), H = (0,0,-1)
    pl.specular = {0.5f, 1, 1, 0};
    add_light(s, 0, pl);
    Light dl = directional({0, 0, 1}, {0, 0, 0, 0});
    dl.specular = {0.25f, 0, 0, 0};
    add_light(s, 1, dl);
    // sum = (0.5, 1, 1)/2 + (0.25, 0, 0) = (0.5, 0.5, 0.5); times Cs = (0.5, 0.25, 0.125); alpha 0.4.
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d1, 0.5f, 0.25f, 0.125f, 0.4f);
}

TEST_CASE("COLORVERTEX takes material colours from the vertex's diffuse and specular registers", "[ff][lighting][material]") {
    FfState s;
    s.rs.ambient = 0xFFFFFFFF;
    s.rs.ambientmaterialsource = MaterialSource::Color2;
    s.material.diffuse = {0, 0, 0, 1};
    s.material.ambient = {0, 0, 0, 0};
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 1}));
    Vertex vx = lit_at(0, 0, 0, {0, 0, -1})
                    .set(kDeDiffuse, {0.5f, 0.25f, 0.5f, 0.3f}, 4)
                    .set(kDeSpecular, {0.1f, 0.2f, 0.3f, 0.9f}, 4);
    // diffuse source COLOR1 = vertex diffuse, times N.L = 1; ambient source COLOR2 = vertex
    // specular times Ga = 1: (0.6, 0.45, 0.8), alpha the vertex diffuse alpha 0.3.
    CHECK_VEC(run(s, vx).d0, 0.6f, 0.45f, 0.8f, 0.3f);

    SECTION("EMISSIVEMATERIALSOURCE COLOR1 adds the vertex's diffuse as emissive") {
        s.rs.emissivematerialsource = MaterialSource::Color1;
        CHECK_VEC(run(s, vx).d0, 1, 0.7f, 1, 0.3f);
    }
    SECTION("COLORVERTEX FALSE: the material, whatever the sources say") {
        s.rs.colorvertex = false;
        s.material.diffuse = {0.1f, 0.1f, 0.1f, 0.5f};
        CHECK_VEC(run(s, vx).d0, 0.1f, 0.1f, 0.1f, 0.5f);
    }
}

TEST_CASE("A material source naming a colour the vertex lacks falls back to the material", "[ff][lighting][material]") {
    FfState s;
    s.rs.diffusematerialsource = MaterialSource::Color2;  // the vertex has no SPECULAR
    s.material.diffuse = {0.25f, 0.5f, 0.75f, 0.2f};
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 1}));
    Vertex vx = lit_at(0, 0, 0, {0, 0, -1}).set(kDeDiffuse, {1, 1, 1, 1}, 4);
    CHECK_VEC(run(s, vx).d0, 0.25f, 0.5f, 0.75f, 0.2f);
}

TEST_CASE("Lighting on without a normal keeps ambient and emissive and drops diffuse and specular", "[ff][lighting]") {
    FfState s;
    s.rs.specularenable = true;
    s.material.ambient = {1, 1, 1, 1};
    s.material.diffuse = {1, 1, 1, 0.5f};
    s.material.specular = {1, 1, 1, 1};
    s.material.emissive = {0.125f, 0, 0, 0};
    Light l = directional({0, 0, 1}, {1, 1, 1, 1});
    l.ambient = {0, 0.25f, 0, 0};
    l.specular = {1, 1, 1, 1};
    add_light(s, 0, l);
    const VertexOutputs o = run(s, at(0, 0, 0));
    CHECK_VEC(o.d0, 0.125f, 0.25f, 0, 0.5f);
    CHECK_VEC(o.d1, 0, 0, 0, 1);
}

TEST_CASE("Lighting off: the vertex's colours, else opaque white and (0,0,0,0)", "[ff][lighting]") {
    FfState s;
    s.rs.lighting = false;
    s.material.emissive = {1, 1, 1, 1};  // not used
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 1}));
    VertexOutputs o = run(s, lit_at(0, 0, 0, {0, 0, -1}));
    CHECK_VEC(o.d0, 1, 1, 1, 1);
    CHECK_VEC(o.d1, 0, 0, 0, 0);
    Vertex vx = at(0, 0, 0).set(kDeDiffuse, {0.1f, 0.2f, 0.3f, 0.4f}, 4).set(kDeSpecular, {0.5f, 0.6f, 0.7f, 0.8f}, 4);
    o = run(s, vx);
    CHECK_VEC(o.d0, 0.1f, 0.2f, 0.3f, 0.4f);
    CHECK_VEC(o.d1, 0.5f, 0.6f, 0.7f, 0.8f);
}

TEST_CASE("Lit colours are saturated to 0..1 after all lights", "[ff][lighting]") {
    FfState s = white_material();
    add_light(s, 0, directional({0, 0, 1}, {3, -1, 0.25f, 1}));
    add_light(s, 1, directional({0, 0, 1}, {-1, 0.5f, 0.25f, 1}));
    // sums (2, -0.5, 0.5): saturated (1, 0, 0.5).
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).d0, 1, 0, 0.5f, 1);
}

// ================================================================ fog

namespace {
FfState fogged(FogMode mode) {
    FfState s;
    s.rs.lighting = false;
    s.rs.fogenable = true;
    s.rs.fogvertexmode = mode;
    s.rs.fogstart = 10;
    s.rs.fogend = 110;
    s.rs.fogdensity = 0.02f;
    s.world[0] = translation(40, 0, 30);  // camera z 30, distance 50
    return s;
}
}  // namespace

TEST_CASE("LINEAR vertex fog is (end - d)/(end - start), d = |z| or, with RANGEFOGENABLE, the distance", "[ff][fog]") {
    FfState s = fogged(FogMode::Linear);
    CHECK(run(s, at(0, 0, 0)).fog == Approx(0.8f));  // (110 - 30) / 100
    CHECK(run(s, at(0, 0, -60)).fog == Approx(0.8f));  // z = -30: |z| = 30
    s.rs.rangefogenable = true;
    CHECK(run(s, at(0, 0, 0)).fog == Approx(0.6f));  // (110 - 50) / 100
}

TEST_CASE("EXP and EXP2 vertex fog are exp(-d density) and exp(-(d density)^2)", "[ff][fog]") {
    FfState s = fogged(FogMode::Exp);
    CHECK(run(s, at(0, 0, 0)).fog == Approx(std::exp(-0.6)));  // 30 * 0.02
    s.rs.rangefogenable = true;
    CHECK(run(s, at(0, 0, 0)).fog == Approx(std::exp(-1.0)));  // 50 * 0.02
    s = fogged(FogMode::Exp2);
    CHECK(run(s, at(0, 0, 0)).fog == Approx(std::exp(-0.36)));
    s.rs.rangefogenable = true;
    CHECK(run(s, at(0, 0, 0)).fog == Approx(std::exp(-1.0)));
}

TEST_CASE("The fog factor is clamped to 0..1, and FOGSTART == FOGEND fogs fully", "[ff][fog]") {
    FfState s = fogged(FogMode::Linear);
    CHECK(run(s, at(0, 0, -25)).fog == 1.0f);  // d = 5 < start: (110 - 5)/100 > 1
    CHECK(run(s, at(0, 0, 100)).fog == 0.0f);  // d = 130 > end
    s.rs.fogstart = s.rs.fogend = 50;
    CHECK(run(s, at(0, 0, 0)).fog == 0.0f);
    CHECK(run(s, at(0, 0, -29)).fog == 0.0f);  // d = 1, nearer than both
}

TEST_CASE("Without vertex fog the fog factor is the specular alpha", "[ff][fog]") {
    Vertex vx = at(0, 0, 0).set(kDeSpecular, {0, 0, 0, 0.65f}, 4);
    SECTION("FOGVERTEXMODE NONE") {
        FfState s = fogged(FogMode::None);
        CHECK(run(s, vx).fog == Approx(0.65f));
    }
    SECTION("FOGTABLEMODE not NONE: per-pixel fog, no vertex fog") {
        FfState s = fogged(FogMode::Linear);
        s.rs.fogtablemode = FogMode::Exp;
        CHECK(run(s, vx).fog == Approx(0.65f));
    }
    SECTION("lit, with SPECULARENABLE: the specular source's alpha") {
        FfState s = fogged(FogMode::None);
        s.rs.lighting = true;
        s.rs.specularenable = true;
        CHECK(run(s, vx).fog == Approx(0.65f));  // SPECULARMATERIALSOURCE COLOR2
    }
    SECTION("no SPECULAR register: 0") {
        FfState s = fogged(FogMode::None);
        CHECK(run(s, at(0, 0, 0)).fog == 0.0f);
    }
}

TEST_CASE("With FOGENABLE FALSE no fog factor is written", "[ff][fog]") {
    // Nothing reads oFog when fog is off (choice 6): it keeps its start value 0, whatever the
    // specular alpha, lit or not, pre-transformed or not.
    Vertex vx = at(0, 0, 0).set(kDeSpecular, {0, 0, 0, 0.65f}, 4);
    FfState s = fogged(FogMode::Linear);
    s.rs.fogenable = false;
    CHECK(run(s, vx).fog == 0.0f);
    s.rs.lighting = true;
    s.rs.specularenable = true;
    CHECK(run(s, vx).fog == 0.0f);
    vx.in.pretransformed = true;
    vx.v[kDePosition] = {10, 20, 0.5f, 1};
    vx.in.components[kDePosition] = 4;
    CHECK(run(s, vx).fog == 0.0f);
}

// ================================================================ texture coordinates

TEST_CASE("PASSTHRU stages take the set TEXCOORDINDEX names, and a missing set is not written", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.stages[0].texcoordindex = 1;
    s.stages[1].texcoordindex = 0;
    Vertex vx = at(0, 0, 0).set(kDeTexcoord0, {0.5f, 0.25f, 0, 1}, 2).set(kDeTexcoord0 + 1, {1, 2, 3, 1}, 3);
    const VertexOutputs o = run(s, vx);
    CHECK_VEC(o.t[0], 1, 2, 3, 1);
    CHECK_VEC(o.t[1], 0.5f, 0.25f, 0, 1);
    CHECK_VEC(o.t[2], 0, 0, 0, 0);  // stage 2 reads set 2: absent
    CHECK(texcoord_outputs(s, vx.in, Caps{}) == 0x3u);
}

TEST_CASE("CAMERASPACENORMAL and CAMERASPACEPOSITION generate (x, y, z, 1) in camera space", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.view = rot_z90();
    s.world[0] = translation(1, 2, 3);
    s.stages[0].texcoordindex = kTciCameraSpaceNormal;
    s.stages[1].texcoordindex = kTciCameraSpacePosition | 5;  // the set number is not read
    const VertexOutputs o = run(s, lit_at(0, 0, 0, {2, 0, 0}));
    CHECK_VEC(o.t[0], 0, 2, 0, 1);        // (2,0,0) rotated; not normalised (NORMALIZENORMALS off)
    CHECK_VEC(o.t[1], -2, 1, 3, 1);       // (1,2,3) rotated
    CHECK(texcoord_outputs(s, lit_at(0, 0, 0, {2, 0, 0}).in, Caps{}) == 0x3u);
}

TEST_CASE("CAMERASPACEREFLECTIONVECTOR is E - 2 (N.E) N, E the unit vector from the eye to the vertex", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.world[0] = translation(3, 0, 4);
    s.stages[0].texcoordindex = kTciCameraSpaceReflectionVector;
    // E = (0.6, 0, 0.8), N = (0,0,-1), N.E = -0.8: R = E + 1.6 N = (0.6, 0, -0.8).
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).t[0], 0.6f, 0, -0.8f, 1);
    s.rs.localviewer = false;  // LOCALVIEWER is about specular highlights: no change
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -1})).t[0], 0.6f, 0, -0.8f, 1);
    // The normal as lighting uses it: not normalised without NORMALIZENORMALS. N = (0,0,-2):
    // N.E = -1.6, R = E + 3.2 N = (0.6, 0, 0.8 - 6.4).
    CHECK_VEC(run(s, lit_at(0, 0, 0, {0, 0, -2})).t[0], 0.6f, 0, -5.6f, 1);
}

TEST_CASE("A 2-D set is padded to (u, v, 1, 0) before the texture matrix", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.stages[0].texturetransformflags = 2;  // COUNT2
    s.texture[0] = rows({2, 0, 0, 0, 0, 1, 0, 0, 0.1f, 0.2f, 1, 0, 7, 7, 7, 1});
    Vertex vx = at(0, 0, 0).set(kDeTexcoord0, {0.5f, 0.25f, 0, 1}, 2);
    // (0.5, 0.25, 1, 0) * M: row 3 adds (0.1, 0.2), row 4 (7,7,7,1) does not contribute.
    CHECK_VEC(run(s, vx).t[0], 1.1f, 0.45f, 1, 0);
}

TEST_CASE("A 1-D set is padded to (u, 1, 0, 0) and a 3-D set to (u, v, w, 1)", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.stages[0].texturetransformflags = 2;
    s.texture[0] = rows({2, 0, 0, 0, 0.1f, 0.3f, 0, 0, 9, 9, 9, 9, 7, 7, 7, 7});
    s.stages[1].texturetransformflags = 3;
    s.texture[1] = translation(10, 20, 30);
    Vertex vx = at(0, 0, 0).set(kDeTexcoord0, {0.5f, 0, 0, 1}, 1).set(kDeTexcoord0 + 1, {1, 2, 3, 1}, 3);
    const VertexOutputs o = run(s, vx);
    CHECK_VEC(o.t[0], 1.1f, 0.3f, 0, 0);
    CHECK_VEC(o.t[1], 11, 22, 33, 1);
}

TEST_CASE("Without a NORMAL register the generated normal is (0,0,0), whatever the register holds", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.world[0] = translation(3, 0, 4);
    s.stages[0].texcoordindex = kTciCameraSpaceNormal;
    s.stages[1].texcoordindex = kTciCameraSpaceReflectionVector;
    Vertex vx = at(0, 0, 0);
    vx.v[kDeNormal] = {5, 5, 5, 5};  // not loaded: not read
    const VertexOutputs o = run(s, vx);
    CHECK_VEC(o.t[0], 0, 0, 0, 1);
    CHECK_VEC(o.t[1], 0.6f, 0, 0.8f, 1);  // R = E
}

TEST_CASE("A generated coordinate is transformed as (x, y, z, 1)", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.world[0] = translation(1, 2, 3);
    s.stages[0].texcoordindex = kTciCameraSpacePosition;
    s.stages[0].texturetransformflags = 4;
    s.texture[0] = translation(1, 1, 1);
    CHECK_VEC(run(s, at(0, 0, 0)).t[0], 2, 3, 4, 1);
}

TEST_CASE("COUNT1 behaves as DISABLE (NVIDIA): the set passes through untransformed", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.stages[0].texturetransformflags = 1;
    s.texture[0] = scaling(5, 5, 5);
    Vertex vx = at(0, 0, 0).set(kDeTexcoord0, {0.5f, 0.25f, 0, 1}, 2);
    CHECK_VEC(run(s, vx).t[0], 0.5f, 0.25f, 0, 1);
}

TEST_CASE("PROJECTED leaves the transformed coordinates undivided", "[ff][texcoord]") {
    FfState s;
    s.rs.lighting = false;
    s.stages[0].texturetransformflags = 3 | kTtffProjected;
    s.texture[0] = rows({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1});
    Vertex vx = at(0, 0, 0).set(kDeTexcoord0, {0.5f, 0.25f, 0, 1}, 2);
    // (0.5, 0.25, 1, 0) * M = (0.5, 0.25, 2, 0); the rasteriser, not the vertex stage, divides by 2.
    CHECK_VEC(run(s, vx).t[0], 0.5f, 0.25f, 2, 0);
}

TEST_CASE("Stages beyond the device's texture blend stages are not processed", "[ff][texcoord][caps]") {
    FfState s;
    s.rs.lighting = false;
    Caps caps;
    caps.max_texture_blend_stages = 2;
    Vertex vx = at(0, 0, 0);
    for (uint32_t i = 0; i < 3; ++i) vx.set(kDeTexcoord0 + i, {float(i + 1), 0, 0, 1}, 2);
    const VertexOutputs o = run(s, vx, caps);
    CHECK_VEC(o.t[1], 2, 0, 0, 1);
    CHECK_VEC(o.t[2], 0, 0, 0, 0);
    CHECK(texcoord_outputs(s, vx.in, caps) == 0x3u);
}

// ================================================================ point size

TEST_CASE("Without PSIZE or point scaling the point size is not written", "[ff][point]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.pointsize = 7;
    CHECK_FALSE(writes_point_size(s, at(0, 0, 0).in));
    CHECK(run(s, at(0, 0, 0)).pts == 0.0f);
}

TEST_CASE("The PSIZE register gives the point size, clamped to POINTSIZE_MIN/MAX and MaxPointSize", "[ff][point]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.pointsize = 7;  // not used: the vertex has a size
    Caps caps;
    caps.max_point_size = 256;
    Vertex vx = at(0, 0, 0).set(kDePSize, {5, 0, 0, 1}, 1);
    CHECK(writes_point_size(s, vx.in));
    CHECK(run(s, vx, caps).pts == 5.0f);
    vx.v[kDePSize][0] = 100;  // POINTSIZE_MAX 64 (default) < MaxPointSize 256
    CHECK(run(s, vx, caps).pts == 64.0f);
    caps.max_point_size = 32;
    CHECK(run(s, vx, caps).pts == 32.0f);
    s.rs.pointsize_min = 6;
    vx.v[kDePSize][0] = 1;
    CHECK(run(s, vx, caps).pts == 6.0f);
}

TEST_CASE("POINTSCALEENABLE: Vh * Si * sqrt(1/(A + B De + C De^2)), Vh the viewport height", "[ff][point]") {
    FfState s;
    s.rs.lighting = false;
    s.rs.pointscaleenable = true;
    s.rs.pointsize = 2;
    s.rs.pointsize_max = 1000;
    s.rs.pointscale_a = 0;
    s.rs.pointscale_b = 0;
    s.rs.pointscale_c = 1;
    s.world[0] = translation(0, 3, 4);  // De = 5
    Caps caps;
    caps.max_point_size = 1000;
    // 480 * 2 * sqrt(1/25) = 192.
    CHECK(run(s, at(0, 0, 0), caps).pts == Approx(192));
    s.viewport.height = 240;  // the width (640) does not enter
    CHECK(run(s, at(0, 0, 0), caps).pts == Approx(96));
    s.rs.pointscale_a = 4;
    s.rs.pointscale_b = 1;
    s.rs.pointscale_c = 0;  // 240 * 2 * sqrt(1/(4 + 5)) = 160
    CHECK(run(s, at(0, 0, 0), caps).pts == Approx(160));
    s.rs.pointsize_max = 100;
    CHECK(run(s, at(0, 0, 0), caps).pts == 100.0f);
    caps.max_point_size = 50;
    CHECK(run(s, at(0, 0, 0), caps).pts == 50.0f);
    s.rs.pointsize_max = 1000;
    caps.max_point_size = 1000;
    s.rs.pointsize_min = 300;
    CHECK(run(s, at(0, 0, 0), caps).pts == 300.0f);
}

// ================================================================ pre-transformed vertices

TEST_CASE("XYZRHW vertices pass through: no transform, lighting, vertex fog, scaling or texture transform", "[ff][xyzrhw]") {
    FfState s;  // lighting on by default: ignored
    s.world[0] = translation(9, 9, 9);
    s.rs.fogenable = true;
    s.rs.fogvertexmode = FogMode::Linear;
    s.rs.pointscaleenable = true;
    s.stages[0].texturetransformflags = 2;
    s.texture[0] = scaling(5, 5, 5);
    s.stages[1].texcoordindex = kTciCameraSpaceNormal | 1;  // generation ignored: set 1 passes through
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 1}));
    Vertex vx = Vertex{}.set(kDePosition, {100, 50, 0.5f, 0.25f}, 4);
    vx.in.pretransformed = true;
    vx.set(kDeSpecular, {0.1f, 0.2f, 0.3f, 0.4f}, 4)
        .set(kDePSize, {3, 0, 0, 1}, 1)
        .set(kDeTexcoord0, {0.5f, 0.25f, 0, 1}, 2)
        .set(kDeTexcoord0 + 1, {0.75f, 0, 0, 1}, 1);
    const VertexOutputs o = run(s, vx);
    CHECK_VEC(o.pos, 100, 50, 0.5f, 0.25f);
    CHECK_VEC(o.d0, 1, 1, 1, 1);  // no DIFFUSE: opaque white
    CHECK_VEC(o.d1, 0.1f, 0.2f, 0.3f, 0.4f);
    CHECK(o.fog == Approx(0.4f));
    CHECK(o.pts == 3.0f);
    CHECK_VEC(o.t[0], 0.5f, 0.25f, 0, 1);
    CHECK_VEC(o.t[1], 0.75f, 0, 0, 1);
}

// ================================================================ check_drawable

TEST_CASE("More enabled lights than MaxActiveLights cannot be drawn (with lighting on)", "[ff][caps]") {
    FfState s;
    Caps caps;
    caps.max_active_lights = 2;
    for (uint32_t i = 0; i < 3; ++i) add_light(s, i * 10, directional({0, 0, 1}, {1, 1, 1, 1}));
    const Vertex vx = lit_at(0, 0, 0, {0, 0, -1});
    const std::string e = refusal([&] { check_drawable(s, vx.in, caps); });
    CHECK_THAT(e, Catch::Contains("3 lights are enabled") && Catch::Contains("MaxActiveLights is 2"));
    s.lights[10].enabled = false;
    CHECK_NOTHROW(check_drawable(s, vx.in, caps));
    s.lights[10].enabled = true;
    s.rs.lighting = false;
    CHECK_NOTHROW(check_drawable(s, vx.in, caps));
}

TEST_CASE("Blending more world matrices than MaxVertexBlendMatrices cannot be drawn", "[ff][caps][blend]") {
    FfState s;
    Caps caps;
    caps.max_vertex_blend_matrices = 2;
    s.rs.vertexblend = VertexBlend::Weights2;
    const Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.5f, 0.5f, 0, 1}, 2);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, caps); }),
               Catch::Contains("D3DVBF_2WEIGHTS blends 3 world matrices") &&
                   Catch::Contains("MaxVertexBlendMatrices is 2"));
    s.rs.vertexblend = VertexBlend::Weights1;
    CHECK_NOTHROW(check_drawable(s, vx.in, caps));
}

TEST_CASE("VERTEXBLEND needs as many blend weights in the declaration as it reads", "[ff][caps][blend]") {
    FfState s;
    s.rs.vertexblend = VertexBlend::Weights2;
    Vertex vx = at(0, 0, 0);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }),
               Catch::Contains("needs 2 blend weights") && Catch::Contains("D3DVSDE_BLENDWEIGHT"));
    vx.set(kDeBlendWeight, {0.5f, 0, 0, 1}, 1);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }),
               Catch::Contains("BLENDWEIGHT register (v1) has 1"));
    vx.set(kDeBlendWeight, {0.5f, 0.5f, 0, 1}, 2);
    CHECK_NOTHROW(check_drawable(s, vx.in, Caps{}));
    s.rs.vertexblend = VertexBlend::Weights0;  // reads none
    CHECK_NOTHROW(check_drawable(s, at(0, 0, 0).in, Caps{}));
}

TEST_CASE("Indexed blending needs MaxVertexBlendMatrixIndex > 0 and a BLENDINDICES register", "[ff][caps][blend]") {
    FfState s;
    s.rs.vertexblend = VertexBlend::Weights1;
    s.rs.indexedvertexblendenable = true;
    Caps caps;
    Vertex vx = at(0, 0, 0).set(kDeBlendWeight, {0.5f, 0, 0, 1}, 1);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, caps); }),
               Catch::Contains("D3DRS_INDEXEDVERTEXBLENDENABLE") && Catch::Contains("MaxVertexBlendMatrixIndex is 0"));
    caps.max_vertex_blend_matrix_index = 255;
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, caps); }), Catch::Contains("D3DVSDE_BLENDINDICES"));
    vx.set(kDeBlendIndices, {0, 0, 0, 1}, 1);  // a FLOAT1 element: one index, 1WEIGHTS needs two
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, caps); }),
               Catch::Contains("needs 2 matrix indices") && Catch::Contains("BLENDINDICES register (v2) has 1"));
    vx.set(kDeBlendIndices, {0, 1, 0, 0}, 4);
    CHECK_NOTHROW(check_drawable(s, vx.in, caps));
    s.rs.vertexblend = VertexBlend::Disable;  // indices not in use: no refusal
    CHECK_NOTHROW(check_drawable(s, at(0, 0, 0).in, Caps{}));
}

TEST_CASE("TWEENING without a POSITION2 register cannot be drawn", "[ff][caps][tween]") {
    FfState s;
    s.rs.vertexblend = VertexBlend::Tweening;
    CHECK_THAT(refusal([&] { check_drawable(s, at(0, 0, 0).in, Caps{}); }),
               Catch::Contains("D3DVBF_TWEENING") && Catch::Contains("D3DVSDE_POSITION2, v15"));
    CHECK_NOTHROW(check_drawable(s, at(0, 0, 0).set(kDePosition2, {0, 0, 0, 1}, 3).in, Caps{}));
}

TEST_CASE("A declaration without a position cannot be drawn by fixed function", "[ff][caps]") {
    FfState s;
    const Vertex vx = Vertex{}.set(kDeNormal, {0, 0, 1, 1}, 3);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }), Catch::Contains("D3DVSDE_POSITION, v0"));
}

TEST_CASE("Texture stage values outside D3D8's enumerations are refused", "[ff][caps][texcoord]") {
    FfState s;
    s.stages[3].texcoordindex = 0x40000;
    CHECK_THAT(refusal([&] { check_drawable(s, at(0, 0, 0).in, Caps{}); }),
               Catch::Contains("texture stage 3") && Catch::Contains("generation mode 4"));
    s.stages[3].texcoordindex = 3;
    s.stages[1].texturetransformflags = 5;
    CHECK_THAT(refusal([&] { check_drawable(s, at(0, 0, 0).in, Caps{}); }),
               Catch::Contains("texture stage 1") && Catch::Contains("TEXTURETRANSFORMFLAGS 5"));
}

TEST_CASE("Enumeration values outside D3D8's are refused, naming the enumeration", "[ff][caps]") {
    const Vertex vx = at(0, 0, 0);
    FfState s;
    s.rs.vertexblend = VertexBlend(4);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }), Catch::Contains("D3DRS_VERTEXBLEND 4"));
    s = FfState{};
    s.rs.fogvertexmode = FogMode(7);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }), Catch::Contains("D3DFOGMODE 7"));
    s = FfState{};
    s.rs.ambientmaterialsource = MaterialSource(3);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }), Catch::Contains("D3DMATERIALCOLORSOURCE 3"));
    s = FfState{};
    Light l;
    l.type = LightType(0);  // a zeroed D3DLIGHT8
    add_light(s, 5, l);
    CHECK_THAT(refusal([&] { check_drawable(s, vx.in, Caps{}); }), Catch::Contains("light 5: D3DLIGHT8 Type 0"));
}

TEST_CASE("A blend index beyond WORLDMATRIX(255) is refused even when the caps claim more", "[ff][blend][caps]") {
    FfState s;
    Caps caps;
    caps.max_vertex_blend_matrix_index = 1000;
    s.rs.lighting = false;
    s.rs.vertexblend = VertexBlend::Weights0;
    s.rs.indexedvertexblendenable = true;
    Vertex vx = at(0, 0, 0).set(kDeBlendIndices, {256, 0, 0, 0}, 4);  // a FLOAT4 BLENDINDICES element
    CHECK_THAT(refusal([&] { process_vertex(s, vx.in, vx.v, caps); }), Catch::Contains("blend matrix index 256") && Catch::Contains("outside 0..255 (D3DTS_WORLDMATRIX(0..255))"));
    vx.v[kDeBlendIndices][0] = 255;
    s.world[255] = translation(1, 2, 3);
    CHECK_VEC(process_vertex(s, vx.in, vx.v, caps).pos, 1, 2, 3, 1);
}

TEST_CASE("Pre-transformed vertices skip the lighting and blending limits", "[ff][caps][xyzrhw]") {
    FfState s;
    Caps caps;
    caps.max_active_lights = 0;
    add_light(s, 0, directional({0, 0, 1}, {1, 1, 1, 1}));
    s.rs.vertexblend = VertexBlend::Weights3;
    Vertex vx = Vertex{}.set(kDePosition, {1, 2, 3, 1}, 4);
    vx.in.pretransformed = true;
    CHECK_NOTHROW(check_drawable(s, vx.in, caps));
}

// ================================================================ a property over random states

TEST_CASE("Lit colours do not change when the camera turns about the scene (local viewer)", "[ff][lighting][random]") {
    // Lighting is computed in camera space from distances and angles only: a rigid rotation of the
    // view leaves every vertex's diffuse and specular colour unchanged (with LOCALVIEWER TRUE; the
    // non-local viewer (0,0,-1) is tied to the camera). 10,000 random vertices.
    std::mt19937_64 rng(test_seed("ff reference camera rotation"));
    std::uniform_real_distribution<float> u(-1, 1), pos(-10, 10), col(0, 0.5f);
    const auto rot = [&] {  // a random rotation from a random unit quaternion
        float q[4];
        float n = 0;
        do {
            for (float& c : q) c = u(rng);
            n = q[0] * q[0] + q[1] * q[1] + q[2] * q[2] + q[3] * q[3];
        } while (n < 0.1f || n > 1);
        for (float& c : q) c /= std::sqrt(n);
        const float w = q[0], x = q[1], y = q[2], z = q[3];
        return rows({1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y), 0,
                     2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x), 0,
                     2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y), 0, 0, 0, 0, 1});
    };
    const auto color = [&] { return Color{col(rng), col(rng), col(rng), col(rng)}; };
    for (int state = 0; state < 100; ++state) {
        FfState s;
        s.rs.specularenable = true;
        s.rs.normalizenormals = state % 2 == 0;
        s.material = {color(), color(), color(), color(), 1 + 20 * col(rng)};
        s.rs.ambient = 0x00202020;
        for (uint32_t i = 0; i < 4; ++i) {
            Light l;
            l.type = LightType(1 + (rng() % 3));
            l.diffuse = color();
            l.specular = color();
            l.ambient = color();
            l.position = {pos(rng), pos(rng), pos(rng)};
            l.direction = {u(rng), u(rng), u(rng) + 2};
            l.range = 1000;  // no cut-off: a vertex at the range would be a discontinuity
            l.attenuation0 = 0.5f;
            l.attenuation1 = 0.05f;
            l.theta = 0.5f;
            l.phi = 1.5f;
            l.falloff = 1;
            add_light(s, i, l);
        }
        FfState turned = s;
        turned.view = rot();
        for (int k = 0; k < 100; ++k) {
            const Vertex vx = lit_at(pos(rng), pos(rng), pos(rng), {u(rng), u(rng), u(rng)});
            const VertexOutputs a = process_vertex(s, vx.in, vx.v, Caps{});
            const VertexOutputs b = process_vertex(turned, vx.in, vx.v, Caps{});
            for (size_t i = 0; i < 4; ++i) {
                INFO("state " << state << " vertex " << k << " component " << i);
                REQUIRE(b.d0[i] == Approx(a.d0[i]).margin(1e-4));
                REQUIRE(b.d1[i] == Approx(a.d1[i]).margin(1e-4));
            }
        }
    }
}

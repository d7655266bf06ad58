// The fixed-function scene commands (docs/scenes.md): parsing, errors with JSON pointers, D3D8's
// device defaults, SetLight's parameter checks, MultiplyTransform's order, and the scene
// machine's fixed-function state (model/scene/scene_machine.h).
#include "model/common/float_bits.h"
#include "model/ff/ff_names.h"
#include "model/ff/fvf.h"
#include "model/scene/functional.h"
#include "model/scene/scene_machine.h"
#include "tests/ff_test_util.h"

#include <catch2/catch.hpp>

#include <cfloat>
#include <cmath>
#include <string>
#include <type_traits>
#include <variant>

using namespace vpsim;
using namespace vpsim::scene;
using Catch::Matchers::Contains;
using vpsim::ff::test::rows;

namespace {

Scene parse(const std::string& commands) {
    return parse_scene(nlohmann::json::parse("{\"commands\": [" + commands + "]}"), "", "t.json");
}

// The error a scene's parsing (or running, state commands only) gives: "t.json: /pointer: message".
std::string error_of(const std::string& commands) {
    try {
        Scene s = parse(commands);
        run_functional(s, vs::Profile::d3d8());
    } catch (const SceneError& e) {
        return e.what();
    }
    return "no error";
}

// Runs the state commands of a scene through a scene machine and returns it.
struct Machine {
    Scene scene;
    SceneMachine m;
    explicit Machine(const std::string& commands) : scene(parse(commands)), m(scene, vs::Profile::d3d8()) {
        for (const auto& c : scene.commands) {
            const std::string& p = c.pointer;
            std::visit(
                [&](const auto& b) {
                    using T = std::decay_t<decltype(b)>;
                    if constexpr (std::is_same_v<T, CreateVertexShader>) m.create(p, b);
                    else if constexpr (std::is_same_v<T, SetVertexShader>) m.set_shader(p, b);
                    else if constexpr (std::is_same_v<T, SetRenderState>) m.set_render_state(p, b);
                    else if constexpr (is_ff_state_command_v<T>) m.apply_ff_state(p, c.body);
                    else FAIL("unexpected command");
                },
                c.body);
        }
    }
    const ff::FfState& ff() const { return m.ff_state(); }
};

const char* kDecl = R"J("declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_TEXCOORD0, D3DVSDT_SHORT2), D3DVSD_END()"})J";

}  // namespace

TEST_CASE("The fixed-function state starts at D3D8's device defaults", "[ff][scene]") {
    Machine mc("");
    const ff::FfState& s = mc.ff();
    const ff::RenderStates& rs = s.rs;
    // D3DRENDERSTATETYPE defaults (docs/spec/fixed-function.md, D3D8's reference).
    CHECK(rs.lighting);
    CHECK(rs.ambient == 0);
    CHECK_FALSE(rs.specularenable);
    CHECK(rs.localviewer);
    CHECK_FALSE(rs.normalizenormals);
    CHECK(rs.colorvertex);
    CHECK(rs.diffusematerialsource == ff::MaterialSource::Color1);
    CHECK(rs.specularmaterialsource == ff::MaterialSource::Color2);
    CHECK(rs.ambientmaterialsource == ff::MaterialSource::Material);
    CHECK(rs.emissivematerialsource == ff::MaterialSource::Material);
    CHECK_FALSE(rs.fogenable);
    CHECK(rs.fogvertexmode == ff::FogMode::None);
    CHECK(rs.fogtablemode == ff::FogMode::None);
    CHECK_FALSE(rs.rangefogenable);
    CHECK(rs.fogstart == 0.0f);
    CHECK(rs.fogend == 1.0f);
    CHECK(rs.fogdensity == 1.0f);
    CHECK(rs.vertexblend == ff::VertexBlend::Disable);
    CHECK_FALSE(rs.indexedvertexblendenable);
    CHECK(rs.tweenfactor == 0.0f);
    CHECK(rs.pointsize == 1.0f);
    CHECK(rs.pointsize_min == 0.0f);
    CHECK(rs.pointsize_max == 64.0f);
    CHECK_FALSE(rs.pointscaleenable);
    CHECK(rs.pointscale_a == 1.0f);
    CHECK(rs.pointscale_b == 0.0f);
    CHECK(rs.pointscale_c == 0.0f);
    CHECK(rs.clipping);
    CHECK(rs.clipplaneenable == 0);
    // Transforms are identity; stage n reads set n with no texture transform; no light; a zeroed material.
    const ff::Matrix id = rows({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1});
    CHECK(s.world[0] == id);
    CHECK(s.world[255] == id);
    CHECK(s.view == id);
    CHECK(s.projection == id);
    CHECK(s.texture[7] == id);
    for (uint32_t i = 0; i < 8; ++i) {
        CHECK(s.stages[i].texcoordindex == i);
        CHECK(s.stages[i].texturetransformflags == 0);
    }
    CHECK(s.lights.empty());
    CHECK(s.material.power == 0.0f);
    CHECK(s.material.diffuse == ff::Color{0, 0, 0, 0});
    // vpsim's default viewport: 640 x 480, z 0..1.
    CHECK(s.viewport.x == 0);
    CHECK(s.viewport.width == 640);
    CHECK(s.viewport.height == 480);
    CHECK(s.viewport.minz == 0.0f);
    CHECK(s.viewport.maxz == 1.0f);
}

TEST_CASE("SetRenderState: names with or without D3DRS_, numbers, and each value kind", "[ff][scene]") {
    Machine mc(R"({"op": "SetRenderState", "state": "LIGHTING", "value": false},
                  {"op": "SetRenderState", "state": "D3DRS_SPECULARENABLE", "value": 1},
                  {"op": "SetRenderState", "state": 143, "value": true},
                  {"op": "SetRenderState", "state": "FOGVERTEXMODE", "value": "D3DFOG_LINEAR"},
                  {"op": "SetRenderState", "state": "FOGTABLEMODE", "value": "EXP2"},
                  {"op": "SetRenderState", "state": "DIFFUSEMATERIALSOURCE", "value": 0},
                  {"op": "SetRenderState", "state": "SPECULARMATERIALSOURCE", "value": "D3DMCS_COLOR1"},
                  {"op": "SetRenderState", "state": "AMBIENTMATERIALSOURCE", "value": "COLOR2"},
                  {"op": "SetRenderState", "state": "VERTEXBLEND", "value": "D3DVBF_2WEIGHTS"},
                  {"op": "SetRenderState", "state": "FOGSTART", "value": 2.5},
                  {"op": "SetRenderState", "state": "FOGEND", "value": 10},
                  {"op": "SetRenderState", "state": "FOGDENSITY", "value": 0.25},
                  {"op": "SetRenderState", "state": "POINTSIZE_MAX", "value": 32},
                  {"op": "SetRenderState", "state": "POINTSCALE_C", "value": 0.5},
                  {"op": "SetRenderState", "state": "TWEENFACTOR", "value": 0.75},
                  {"op": "SetRenderState", "state": "AMBIENT", "value": "0x80402010"},
                  {"op": "SetRenderState", "state": "CLIPPLANEENABLE", "value": 5})");
    const ff::RenderStates& rs = mc.ff().rs;
    CHECK_FALSE(rs.lighting);
    CHECK(rs.specularenable);
    CHECK(rs.normalizenormals);
    CHECK(rs.fogvertexmode == ff::FogMode::Linear);
    CHECK(rs.fogtablemode == ff::FogMode::Exp2);
    CHECK(rs.diffusematerialsource == ff::MaterialSource::Material);
    CHECK(rs.specularmaterialsource == ff::MaterialSource::Color1);
    CHECK(rs.ambientmaterialsource == ff::MaterialSource::Color2);
    CHECK(rs.vertexblend == ff::VertexBlend::Weights2);
    CHECK(rs.fogstart == 2.5f);
    CHECK(rs.fogend == 10.0f);
    CHECK(rs.fogdensity == 0.25f);
    CHECK(rs.pointsize_max == 32.0f);
    CHECK(rs.pointscale_c == 0.5f);
    CHECK(rs.tweenfactor == 0.75f);
    CHECK(rs.ambient == 0x80402010u);
    CHECK(rs.clipplaneenable == 5u);

    SECTION("a float state's DWORD is the float's bits; AMBIENT takes [r, g, b, a] too") {
        Scene s = parse(R"({"op": "SetRenderState", "state": "POINTSIZE", "value": 2.0},
                           {"op": "SetRenderState", "state": "AMBIENT", "value": [1, 0.5, 0, 1]},
                           {"op": "SetRenderState", "state": "VERTEXBLEND", "value": 256},
                           {"op": "SetRenderState", "state": "VERTEXBLEND", "value": "TWEENING"})");
        const auto& ps = std::get<SetRenderState>(s.commands[0].body);
        CHECK(ps.state == 154);
        CHECK(ps.dword == 0x40000000u);
        // 0.5 * 255 = 127.5 rounds to 128 = 0x80: 0xAARRGGBB.
        CHECK(std::get<SetRenderState>(s.commands[1].body).dword == 0xFFFF8000u);
        CHECK(std::get<SetRenderState>(s.commands[2].body).dword == 256u);  // D3DVBF_0WEIGHTS
        CHECK(std::get<SetRenderState>(s.commands[3].body).dword == 255u);  // D3DVBF_TWEENING
    }
    SECTION("the tessellator's states keep their values") {
        Scene s = parse(R"({"op": "SetRenderState", "state": "PATCHSEGMENTS", "value": 4.0},
                           {"op": "SetRenderState", "state": "POSITIONORDER", "value": "CUBIC"},
                           {"op": "SetRenderState", "state": "NORMALORDER", "value": "D3DORDER_QUADRATIC"},
                           {"op": "SetRenderState", "state": "PATCHEDGESTYLE", "value": "CONTINUOUS"})");
        CHECK(std::get<SetRenderState>(s.commands[0].body).state == scene::kRsPatchSegments);
        CHECK(std::get<SetRenderState>(s.commands[0].body).value == 4.0f);
        CHECK(std::get<SetRenderState>(s.commands[1].body).value == 3.0f);
        CHECK(std::get<SetRenderState>(s.commands[2].body).value == 2.0f);
        CHECK(std::get<SetRenderState>(s.commands[3].body).value == 1.0f);
    }
}

TEST_CASE("SetRenderState errors name the JSON pointer and the valid names", "[ff][scene]") {
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "LIGHTNING", "value": true})"),
               Contains("t.json: /commands/0/state: ") && Contains("LIGHTING, AMBIENT") && Contains("\"LIGHTNING\""));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": 7, "value": true})"),
               Contains("/commands/0/state: ") && Contains("NORMALIZENORMALS"));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "FOGVERTEXMODE", "value": "LINEARR"})"),
               Contains("/commands/0/value: ") && Contains("NONE, EXP, EXP2, LINEAR"));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "FOGVERTEXMODE", "value": 4})"),
               Contains("/commands/0/value: "));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "VERTEXBLEND", "value": 4})"),
               Contains("/commands/0/value: ") && Contains("TWEENING"));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "LIGHTING", "value": 2})"),
               Contains("/commands/0/value: expected true, false, 1 or 0"));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "LIGHTING", "value": "yes"})"),
               Contains("/commands/0/value: expected true, false, 1 or 0"));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "FOGSTART", "value": "near"})"),
               Contains("/commands/0/value: expected a number"));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "AMBIENT", "value": [1, 0, 0]})"),
               Contains("/commands/0/value: "));
    CHECK_THAT(error_of(R"({"op": "SetRenderState", "state": "LIGHTING"})"), Contains("/commands/0: missing \"value\""));
}

TEST_CASE("SetTransform: states by name or number, matrices as rows or 16 numbers", "[ff][scene]") {
    Machine mc(R"J({"op": "SetTransform", "state": "WORLD", "matrix": [[1,2,3,4],[5,6,7,8],[9,10,11,12],[13,14,15,16]]},
                  {"op": "SetTransform", "state": "D3DTS_VIEW", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 0,0,0,1]},
                  {"op": "SetTransform", "state": 3, "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,1, 0,0,-1,0]},
                  {"op": "SetTransform", "state": "WORLDMATRIX(255)", "matrix": [3,0,0,0, 0,3,0,0, 0,0,3,0, 0,0,0,1]},
                  {"op": "SetTransform", "state": "D3DTS_WORLD1", "matrix": [4,0,0,0, 0,4,0,0, 0,0,4,0, 0,0,0,1]},
                  {"op": "SetTransform", "state": "TEXTURE7", "matrix": [5,0,0,0, 0,5,0,0, 0,0,5,0, 0,0,0,1]})J");
    const ff::FfState& s = mc.ff();
    CHECK(s.world[0] == rows({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16}));
    CHECK(s.world[0].at(3, 0) == 13.0f);  // _41
    CHECK(s.view == rows({2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1}));
    CHECK(s.projection == rows({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 1, 0, 0, -1, 0}));
    CHECK(s.world[255].at(0, 0) == 3.0f);
    CHECK(s.world[1].at(0, 0) == 4.0f);
    CHECK(s.texture[7].at(0, 0) == 5.0f);
    CHECK(s.texture[6] == ff::Matrix::identity());

    CHECK_THAT(error_of(R"J({"op": "SetTransform", "state": "WORLDMATRIX(256)", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]})J"),
               Contains("/commands/0/state: ") && Contains("WORLDMATRIX(0..255)"));
    CHECK_THAT(error_of(R"({"op": "SetTransform", "state": "TEXTURE8", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]})"),
               Contains("/commands/0/state: "));
    CHECK_THAT(error_of(R"({"op": "SetTransform", "state": 4, "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]})"),
               Contains("/commands/0/state: "));
    CHECK_THAT(error_of(R"({"op": "SetTransform", "state": "VIEW", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0]})"),
               Contains("/commands/0/matrix: expected a matrix") && Contains("found an array of 15"));
    CHECK_THAT(error_of(R"({"op": "SetTransform", "state": "VIEW", "matrix": [[1,0,0,0],[0,1,0,0],[0,0,1],[0,0,0,1]]})"),
               Contains("/commands/0/matrix/2: expected a row of 4 numbers"));
    CHECK_THAT(error_of(R"({"op": "SetTransform", "state": "VIEW", "matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,"x"],[0,0,0,1]]})"),
               Contains("/commands/0/matrix/2/3: expected a number"));
    CHECK_THAT(error_of(R"({"op": "SetTransform", "state": "VIEW", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1], "matrx": 1})"),
               Contains("/commands/0/matrx: unknown key"));
}

TEST_CASE("MultiplyTransform sets M x current", "[ff][scene]") {
    // current = translation (1, 2, 3); M = scale (2, 3, 4). M x current scales first, then
    // translates: its fourth row is the translation (1, 2, 3, 1); current x M would give (2, 6, 12, 1).
    Machine mc(R"({"op": "SetTransform", "state": "WORLD", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1,2,3,1]},
                  {"op": "MultiplyTransform", "state": "WORLD", "matrix": [2,0,0,0, 0,3,0,0, 0,0,4,0, 0,0,0,1]},
                  {"op": "MultiplyTransform", "state": "TEXTURE2", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 5,6,7,1]})");
    CHECK(mc.ff().world[0] == rows({2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 4, 0, 1, 2, 3, 1}));
    CHECK(mc.ff().texture[2] == rows({1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 7, 1}));  // x identity

    SECTION("a non-commuting pair: rotation about z by 90 degrees after a translation") {
        // current = translate(1, 0, 0); M = rotate z 90 (rows (0,1,0,0), (-1,0,0,0)). M x current:
        // rows 0-1 are M's (current's upper 3x3 is identity), row 3 = (1, 0, 0, 1).
        Machine m2(R"({"op": "SetTransform", "state": "VIEW", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 1,0,0,1]},
                      {"op": "MultiplyTransform", "state": "VIEW", "matrix": [0,1,0,0, -1,0,0,0, 0,0,1,0, 0,0,0,1]})");
        CHECK(m2.ff().view == rows({0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1}));
    }
}

TEST_CASE("SetLight and LightEnable", "[ff][scene]") {
    Machine mc(R"({"op": "SetLight", "index": 3, "light": {"type": "D3DLIGHT_SPOT", "diffuse": [1, 0.5, 0.25, 1],
                     "specular": [0.1, 0.2, 0.3, 0.4], "ambient": [0, 0, 0.5, 0], "position": [1, 2, 3],
                     "direction": [0, 0, 1], "range": 100, "falloff": 1, "attenuation0": 1, "attenuation1": 0.5,
                     "attenuation2": 0.25, "theta": 0.5, "phi": 1.0}},
                  {"op": "SetLight", "index": 7, "light": {"type": "POINT", "attenuation0": 1}},
                  {"op": "LightEnable", "index": 3, "enable": true},
                  {"op": "LightEnable", "index": 1000000, "enable": true},
                  {"op": "LightEnable", "index": 9, "enable": false})");
    const auto& lights = mc.ff().lights;
    REQUIRE(lights.size() == 4);
    const ff::Light& l = lights.at(3).light;
    CHECK(lights.at(3).enabled);
    CHECK(l.type == ff::LightType::Spot);
    CHECK(l.diffuse == ff::Color{1, 0.5f, 0.25f, 1});
    CHECK(l.specular == ff::Color{0.1f, 0.2f, 0.3f, 0.4f});
    CHECK(l.ambient == ff::Color{0, 0, 0.5f, 0});
    CHECK(l.position == ff::Vec3{1, 2, 3});
    CHECK(l.direction == ff::Vec3{0, 0, 1});
    CHECK(l.range == 100.0f);
    CHECK(l.falloff == 1.0f);
    CHECK(l.attenuation1 == 0.5f);
    CHECK(l.attenuation2 == 0.25f);
    CHECK(l.theta == 0.5f);
    CHECK(l.phi == 1.0f);
    // Absent members are 0, as in a zeroed D3DLIGHT8; a light set but not enabled stays off.
    const ff::Light& p = lights.at(7).light;
    CHECK_FALSE(lights.at(7).enabled);
    CHECK(p.type == ff::LightType::Point);
    CHECK(p.diffuse == ff::Color{0, 0, 0, 0});
    CHECK(p.range == 0.0f);
    CHECK(p.attenuation0 == 1.0f);
    // LightEnable on an index never set: D3D's default light (white directional along +z).
    for (uint32_t i : {1000000u, 9u}) {
        const ff::Light& d = lights.at(i).light;
        CHECK(d.type == ff::LightType::Directional);
        CHECK(d.diffuse == ff::Color{1, 1, 1, 0});
        CHECK(d.specular == ff::Color{0, 0, 0, 0});
        CHECK(d.direction == ff::Vec3{0, 0, 1});
    }
    CHECK(lights.at(1000000).enabled);
    CHECK_FALSE(lights.at(9).enabled);

    SECTION("SetLight on an enabled light keeps it enabled") {
        Machine m2(R"({"op": "LightEnable", "index": 0, "enable": 1},
                      {"op": "SetLight", "index": 0, "light": {"type": 1, "attenuation2": 1}},
                      {"op": "LightEnable", "index": 2, "enable": true},
                      {"op": "LightEnable", "index": 2, "enable": false})");
        CHECK(m2.ff().lights.at(0).enabled);
        CHECK(m2.ff().lights.at(0).light.type == ff::LightType::Point);
        CHECK_FALSE(m2.ff().lights.at(2).enabled);
    }
}

TEST_CASE("SetLight's parameter checks are errors naming the member", "[ff][scene]") {
    auto light = [](const std::string& members) {
        return error_of(R"({"op": "SetLight", "index": 0, "light": {)" + members + "}}");
    };
    // Type: a zeroed D3DLIGHT8 (type 0) is refused, as is a type beyond DIRECTIONAL.
    CHECK_THAT(light(R"("diffuse": [1, 1, 1, 1])"), Contains("/commands/0/light: ") && Contains("type (absent: 0)"));
    CHECK_THAT(light(R"("type": 4, "direction": [0, 0, 1])"),
               Contains("/commands/0/light/type: ") && Contains("POINT, SPOT, DIRECTIONAL"));
    CHECK_THAT(light(R"("type": "AREA", "direction": [0, 0, 1])"), Contains("/commands/0/light/type: "));
    // Range: 0 .. sqrt(FLT_MAX) = 1.8446743e19 for point and spot lights.
    CHECK_THAT(light(R"("type": "POINT", "range": -1, "attenuation0": 1)"),
               Contains("/commands/0/light/range: ") && Contains("sqrt(FLT_MAX)"));
    CHECK_THAT(light(R"("type": "POINT", "range": 2e19, "attenuation0": 1)"), Contains("/commands/0/light/range: "));
    CHECK(light(R"("type": "POINT", "range": 1.8e19, "attenuation0": 1)") == "no error");
    CHECK(light(R"("type": "DIRECTIONAL", "range": -1, "direction": [1, 0, 0])") == "no error");  // ignored
    // Attenuation: each >= 0, not all 0, for point and spot lights only.
    CHECK_THAT(light(R"("type": "POINT", "attenuation1": -0.5, "attenuation0": 1)"),
               Contains("/commands/0/light/attenuation1: ") && Contains("negative"));
    CHECK_THAT(light(R"("type": "POINT", "range": 10)"),
               Contains("/commands/0/light: ") && Contains("attenuation0") && Contains("all 0"));
    CHECK_THAT(light(R"("type": "SPOT", "attenuation0": 0, "attenuation1": 0, "attenuation2": 0, "direction": [0, 0, 1])"),
               Contains("/commands/0/light/attenuation0: ") && Contains("all 0"));
    CHECK(light(R"("type": "DIRECTIONAL", "direction": [0, -1, 0])") == "no error");
    // Direction: nonzero for directional and spot lights; a point light has none.
    CHECK_THAT(light(R"("type": "DIRECTIONAL", "direction": [0, 0, 0])"),
               Contains("/commands/0/light/direction: ") && Contains("zero length"));
    CHECK_THAT(light(R"("type": "DIRECTIONAL")"), Contains("/commands/0/light: ") && Contains("direction (absent: 0)"));
    CHECK_THAT(light(R"("type": "SPOT", "attenuation0": 1, "phi": 1)"), Contains("direction"));
    CHECK(light(R"("type": "POINT", "attenuation0": 1)") == "no error");
    // Spot cone: 0 <= phi <= pi, 0 <= theta <= phi.
    CHECK_THAT(light(R"("type": "SPOT", "attenuation0": 1, "direction": [0, 0, 1], "phi": 3.2)"),
               Contains("/commands/0/light/phi: ") && Contains("pi"));
    CHECK_THAT(light(R"("type": "SPOT", "attenuation0": 1, "direction": [0, 0, 1], "phi": 1, "theta": 1.5)"),
               Contains("/commands/0/light/theta: "));
    CHECK_THAT(light(R"("type": "SPOT", "attenuation0": 1, "direction": [0, 0, 1], "phi": 1, "theta": -0.1)"),
               Contains("/commands/0/light/theta: "));
    CHECK(light(R"("type": "SPOT", "attenuation0": 1, "direction": [0, 0, 1], "phi": 3.14159, "theta": 3.14159)") ==
          "no error");
    CHECK(light(R"("type": "POINT", "attenuation0": 1, "phi": 7, "theta": 9)") == "no error");  // ignored
    // Shapes and unknown members.
    CHECK_THAT(light(R"("type": "POINT", "attenuation0": 1, "colour": [1, 1, 1, 1])"),
               Contains("/commands/0/light/colour: unknown key") && Contains("diffuse, specular, ambient"));
    CHECK_THAT(light(R"("type": "POINT", "attenuation0": 1, "diffuse": [1, 1, 1])"),
               Contains("/commands/0/light/diffuse: expected a colour [r, g, b, a]"));
    CHECK_THAT(light(R"("type": "POINT", "attenuation0": 1, "position": [1, 1])"),
               Contains("/commands/0/light/position: expected a vector [x, y, z]"));
    CHECK_THAT(error_of(R"({"op": "LightEnable", "index": 0, "enable": "on"})"),
               Contains("/commands/0/enable: expected true, false, 1 or 0"));
    CHECK_THAT(error_of(R"({"op": "LightEnable", "index": -1, "enable": true})"), Contains("/commands/0/index: "));
}

TEST_CASE("SetViewport and SetMaterial", "[ff][scene]") {
    Machine mc(R"({"op": "SetViewport", "viewport": {"x": 10, "y": 20, "width": 320, "height": 200, "minz": 0.25, "maxz": 0.75}},
                  {"op": "SetMaterial", "material": {"diffuse": [1, 0, 0, 0.5], "ambient": [0, 1, 0, 1],
                     "specular": [0, 0, 1, 1], "emissive": [0.1, 0.1, 0.1, 0], "power": 20}})");
    const ff::FfState& s = mc.ff();
    CHECK(s.viewport.x == 10);
    CHECK(s.viewport.y == 20);
    CHECK(s.viewport.width == 320);
    CHECK(s.viewport.height == 200);
    CHECK(s.viewport.minz == 0.25f);
    CHECK(s.viewport.maxz == 0.75f);
    CHECK(s.material.diffuse == ff::Color{1, 0, 0, 0.5f});
    CHECK(s.material.ambient == ff::Color{0, 1, 0, 1});
    CHECK(s.material.specular == ff::Color{0, 0, 1, 1});
    CHECK(s.material.emissive == ff::Color{0.1f, 0.1f, 0.1f, 0});
    CHECK(s.material.power == 20.0f);

    Machine m2(R"({"op": "SetViewport", "viewport": {"height": 600}}, {"op": "SetMaterial", "material": {"power": 5}})");
    CHECK(m2.ff().viewport.width == 640);  // absent: vpsim's default
    CHECK(m2.ff().viewport.height == 600);
    CHECK(m2.ff().material.diffuse == ff::Color{0, 0, 0, 0});  // absent: 0

    CHECK_THAT(error_of(R"({"op": "SetViewport", "viewport": {"width": 0}})"), Contains("/commands/0/viewport/width: "));
    CHECK_THAT(error_of(R"({"op": "SetViewport", "viewport": {"maxz": "far"}})"), Contains("/commands/0/viewport/maxz: "));
    // Any finite depth range, as D3D8 (Wine's d3d8 depth_clamp_test sets MaxZ 7.5 and passes on Windows).
    Machine deep(R"({"op": "SetViewport", "viewport": {"minz": 0.5, "maxz": 7.5}})");
    CHECK(deep.ff().viewport.maxz == 7.5f);
    CHECK_THAT(error_of(R"({"op": "SetViewport", "viewport": {"w": 1}})"),
               Contains("/commands/0/viewport/w: unknown key") && Contains("x, y, width, height, minz, maxz"));
    CHECK_THAT(error_of(R"({"op": "SetMaterial", "material": {"shininess": 1}})"),
               Contains("/commands/0/material/shininess: unknown key") && Contains("diffuse, ambient, specular, emissive, power"));
    CHECK_THAT(error_of(R"({"op": "SetMaterial", "material": {"power": "high"}})"), Contains("/commands/0/material/power: "));
}

TEST_CASE("SetTextureStageState: TEXCOORDINDEX and TEXTURETRANSFORMFLAGS", "[ff][scene]") {
    Machine mc(R"({"op": "SetTextureStageState", "stage": 0, "state": "TEXCOORDINDEX", "value": "CAMERASPACEREFLECTIONVECTOR|1"},
                  {"op": "SetTextureStageState", "stage": 1, "state": "D3DTSS_TEXCOORDINDEX", "value": "D3DTSS_TCI_CAMERASPACENORMAL"},
                  {"op": "SetTextureStageState", "stage": 2, "state": 11, "value": 5},
                  {"op": "SetTextureStageState", "stage": 3, "state": "TEXCOORDINDEX", "value": 131073},
                  {"op": "SetTextureStageState", "stage": 0, "state": "TEXTURETRANSFORMFLAGS", "value": "COUNT3|PROJECTED"},
                  {"op": "SetTextureStageState", "stage": 1, "state": 24, "value": "D3DTTFF_COUNT2"},
                  {"op": "SetTextureStageState", "stage": 7, "state": "TEXTURETRANSFORMFLAGS", "value": 4})");
    const auto& st = mc.ff().stages;
    CHECK(st[0].texcoordindex == 0x30001u);
    CHECK(st[1].texcoordindex == 0x10000u);
    CHECK(st[2].texcoordindex == 5u);
    CHECK(st[3].texcoordindex == 0x20001u);  // CAMERASPACEPOSITION | 1
    CHECK(st[4].texcoordindex == 4u);        // untouched: stage n reads set n
    CHECK(st[0].texturetransformflags == 259u);
    CHECK(st[1].texturetransformflags == 2u);
    CHECK(st[7].texturetransformflags == 4u);

    auto err = [](const std::string& state, const std::string& value, int stage = 0) {
        return error_of(R"({"op": "SetTextureStageState", "stage": )" + std::to_string(stage) + R"(, "state": )" + state +
                        R"(, "value": )" + value + "}");
    };
    CHECK_THAT(err("\"TEXCOORDINDEX\"", "8"), Contains("/commands/0/value: ") && Contains("PASSTHRU, CAMERASPACENORMAL"));
    CHECK_THAT(err("\"TEXCOORDINDEX\"", "\"SPHEREMAP\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"TEXCOORDINDEX\"", "262144"), Contains("/commands/0/value: "));  // 0x40000: no such mode
    CHECK_THAT(err("\"TEXCOORDINDEX\"", "\"1|2\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"TEXTURETRANSFORMFLAGS\"", "5"), Contains("/commands/0/value: ") && Contains("COUNT1..COUNT4"));
    CHECK_THAT(err("\"TEXTURETRANSFORMFLAGS\"", "\"COUNT2|COUNT3\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"TEXTURETRANSFORMFLAGS\"", "\"COUNT9\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"ADDRESSU\"", "1"), Contains("/commands/0/state: ") && Contains("COLOROP, COLORARG1"));
    CHECK_THAT(err("12", "1"), Contains("/commands/0/state: "));
    CHECK_THAT(err("\"TEXCOORDINDEX\"", "0", 8), Contains("/commands/0/stage: "));
}

TEST_CASE("SetTextureStageState: the blending states start at D3D8's defaults", "[ff][scene]") {
    // D3DTEXTURESTAGESTATETYPE: COLOROP MODULATE on stage 0, DISABLE elsewhere; ALPHAOP SELECTARG1
    // on stage 0, DISABLE elsewhere; ARG1 TEXTURE, ARG2 (and ARG0, RESULTARG) CURRENT.
    Machine mc(R"({"op": "SetRenderState", "state": "LIGHTING", "value": false})");
    const auto& st = mc.ff().stages;
    CHECK(st[0].colorop == ff::kTopModulate);
    CHECK(st[0].alphaop == ff::kTopSelectArg1);
    for (uint32_t s = 1; s < 8; ++s) {
        CHECK(st[s].colorop == ff::kTopDisable);
        CHECK(st[s].alphaop == ff::kTopDisable);
    }
    for (const auto& t : st) {
        CHECK(t.colorarg1 == ff::kTaTexture);
        CHECK(t.alphaarg1 == ff::kTaTexture);
        CHECK(t.colorarg2 == ff::kTaCurrent);
        CHECK(t.alphaarg2 == ff::kTaCurrent);
        CHECK(t.colorarg0 == ff::kTaCurrent);
        CHECK(t.alphaarg0 == ff::kTaCurrent);
        CHECK(t.resultarg == ff::kTaCurrent);
    }
}

TEST_CASE("SetTextureStageState: the blending states by name or number", "[ff][scene]") {
    Machine mc(R"({"op": "SetTextureStageState", "stage": 1, "state": "COLOROP", "value": "D3DTOP_LERP"},
                  {"op": "SetTextureStageState", "stage": 1, "state": "D3DTSS_COLORARG2", "value": "SPECULAR|COMPLEMENT"},
                  {"op": "SetTextureStageState", "stage": 1, "state": 26, "value": "D3DTA_SPECULAR | ALPHAREPLICATE"},
                  {"op": "SetTextureStageState", "stage": 2, "state": "ALPHAOP", "value": 3},
                  {"op": "SetTextureStageState", "stage": 2, "state": "ALPHAARG1", "value": 36},
                  {"op": "SetTextureStageState", "stage": 2, "state": "RESULTARG", "value": "TEMP"})");
    const auto& st = mc.ff().stages;
    CHECK(st[1].colorop == 26u);
    CHECK(st[1].colorarg2 == 0x14u);
    CHECK(st[1].colorarg0 == 0x24u);
    CHECK(st[2].alphaop == ff::kTopSelectArg2);
    CHECK(st[2].alphaarg1 == 36u);
    CHECK(st[2].resultarg == ff::kTaTemp);
}

TEST_CASE("SetTextureStageState: a bad blending value is an error at its place", "[ff][scene]") {
    auto err = [](const std::string& state, const std::string& value) {
        return error_of(R"({"op": "SetTextureStageState", "stage": 0, "state": )" + state + R"(, "value": )" + value + "}");
    };
    CHECK_THAT(err("\"COLOROP\"", "27"), Contains("/commands/0/value: ") && Contains("DISABLE, SELECTARG1"));
    CHECK_THAT(err("\"COLOROP\"", "0"), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"ALPHAOP\"", "\"BLEND\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"COLORARG1\"", "6"), Contains("/commands/0/value: ") && Contains("DIFFUSE, CURRENT, TEXTURE"));
    CHECK_THAT(err("\"COLORARG1\"", "64"), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"ALPHAARG2\"", "\"SPECULAR|TEXTURE\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"ALPHAARG2\"", "\"COMPLEMENT|COMPLEMENT|SPECULAR\""), Contains("/commands/0/value: "));
    CHECK_THAT(err("\"RESULTARG\"", "\"SPECULAR\""), Contains("/commands/0/value: ") && Contains("CURRENT or TEMP"));
}

TEST_CASE("SetVertexShader with an FVF code selects the fixed-function shader", "[ff][scene]") {
    Machine mc(R"({"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_DIFFUSE|D3DFVF_TEX1"})");
    CHECK(mc.m.fixed_function());
    REQUIRE(mc.m.current_fvf());
    CHECK(*mc.m.current_fvf() == 0x152u);
    const ff::FfInputs& in = mc.m.ff_inputs();
    CHECK(in.loaded == ((1u << 0) | (1u << 3) | (1u << 5) | (1u << 7)));
    CHECK_FALSE(in.pretransformed);

    Machine m2(R"({"op": "SetVertexShader", "fvf": 452})");  // 0x1C4: XYZRHW | DIFFUSE | SPECULAR | TEX1
    CHECK(m2.m.fixed_function());
    CHECK(m2.m.ff_inputs().pretransformed);
    CHECK(m2.m.ff_inputs().components[0] == 4);

    Machine m3(R"({"op": "SetVertexShader", "fvf": ["XYZB2", "D3DFVF_LASTBETA_UBYTE4", "NORMAL"]})");
    CHECK(*m3.m.current_fvf() == 0x1018u);
    CHECK(m3.m.ff_inputs().components[1] == 1);  // one weight, then the indices
    CHECK(m3.m.ff_inputs().has(2));

    CHECK_THAT(error_of(R"({"op": "SetVertexShader", "fvf": "D3DFVF_XYZRHW|D3DFVF_NORMAL"})"),
               Contains("t.json: /commands/0/fvf: FVF xyzrhw-normal"));
    CHECK_THAT(error_of(R"({"op": "SetVertexShader", "fvf": 16})"), Contains("/commands/0/fvf: FVF no-position"));
    CHECK_THAT(error_of(R"({"op": "SetVertexShader", "fvf": ["XYZ", "TEXTURE1"]})"),
               Contains("/commands/0/fvf: FVF syntax") && Contains("TEXTURE1"));
    CHECK_THAT(error_of(R"({"op": "SetVertexShader", "fvf": ["XYZ", 1.5]})"), Contains("/commands/0/fvf/1: "));
    CHECK_THAT(error_of(R"({"op": "SetVertexShader", "fvf": true})"), Contains("/commands/0/fvf: expected an FVF code"));
    CHECK_THAT(error_of(R"({"op": "SetVertexShader"})"), Contains("/commands/0: expected exactly one of \"shader\""));
}

TEST_CASE("Created shaders: no function is fixed function, its inputs from the declaration", "[ff][scene]") {
    const std::string create = std::string(R"({"op": "CreateVertexShader", "name": "ff", )") + kDecl + "}";
    Machine mc(create + R"(, {"op": "SetVertexShader", "shader": "ff"})");
    CHECK(mc.m.fixed_function());
    CHECK_FALSE(mc.m.current_fvf());
    CHECK(mc.m.ff_inputs().loaded == ((1u << 0) | (1u << 3) | (1u << 7)));
    CHECK(mc.m.ff_inputs().components[7] == 2);  // SHORT2

    Machine m2(std::string(R"({"op": "CreateVertexShader", "name": "ff", "function": null, )") + kDecl +
               R"(}, {"op": "SetVertexShader", "shader": "ff"})");
    CHECK(m2.m.fixed_function());

    Machine m3(std::string(R"({"op": "CreateVertexShader", "name": "p", "function": {"asm": "vs.1.1\nmov oPos, v0"}, )") +
               kDecl + R"(}, {"op": "SetVertexShader", "shader": "p"})");
    CHECK_FALSE(m3.m.fixed_function());

    // Switching from an FVF to a created shader and back.
    Machine m4(create + R"(, {"op": "SetVertexShader", "fvf": "XYZRHW"}, {"op": "SetVertexShader", "shader": "ff"})");
    CHECK_FALSE(m4.m.current_fvf());
    CHECK_FALSE(m4.m.ff_inputs().pretransformed);
    CHECK(m4.m.ff_inputs().has(3));
}

TEST_CASE("The functional executor runs scenes with the fixed-function state commands", "[ff][scene]") {
    // State commands between programmable draws: applied, nothing drawn by them.
    const std::string s = std::string(R"({"op": "CreateVertexShader", "name": "p", "function": {"asm": "vs.1.1\nmov oPos, v0"}, )") +
                          kDecl + R"(},
        {"op": "SetVertexShader", "shader": "p"},
        {"op": "SetTransform", "state": "WORLD", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
        {"op": "MultiplyTransform", "state": "VIEW", "matrix": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
        {"op": "SetLight", "index": 0, "light": {"type": "DIRECTIONAL", "direction": [0, 0, 1]}},
        {"op": "LightEnable", "index": 0, "enable": true},
        {"op": "SetViewport", "viewport": {"width": 800, "height": 600}},
        {"op": "SetMaterial", "material": {"diffuse": [1, 1, 1, 1]}},
        {"op": "SetRenderState", "state": "FOGENABLE", "value": true},
        {"op": "SetTextureStageState", "stage": 0, "state": "TEXCOORDINDEX", "value": 0},
        {"op": "SetVertexShader", "fvf": "XYZ"},
        {"op": "SetVertexShader", "shader": "p"})";
    Scene sc = parse(s);
    FunctionalResult r = run_functional(sc, vs::Profile::d3d8());
    CHECK(r.draws.empty());
    CHECK(std::string(command_name(sc.commands[2].body)) == "SetTransform");
    CHECK(std::string(command_name(sc.commands[3].body)) == "MultiplyTransform");
    CHECK(std::string(command_name(sc.commands[9].body)) == "SetTextureStageState");
}

TEST_CASE("The state snapshot a fixed-function draw carries changes only with the state", "[ff][scene]") {
    Scene sc = parse(R"({"op": "SetRenderState", "state": "LIGHTING", "value": false},
                        {"op": "SetTransform", "state": "VIEW", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 0,0,0,1]},
                        {"op": "SetLight", "index": 1, "light": {"type": "POINT", "attenuation0": 1}},
                        {"op": "LightEnable", "index": 1, "enable": true},
                        {"op": "SetMaterial", "material": {"power": 3}},
                        {"op": "SetViewport", "viewport": {"height": 100}},
                        {"op": "SetTextureStageState", "stage": 1, "state": "TEXCOORDINDEX", "value": 0},
                        {"op": "MultiplyTransform", "state": "VIEW", "matrix": [2,0,0,0, 0,2,0,0, 0,0,2,0, 0,0,0,1]},
                        {"op": "SetRenderState", "state": "PATCHSEGMENTS", "value": 1.0})");
    SceneMachine m(sc, vs::Profile::d3d8());
    auto first = m.ff_snapshot();
    CHECK(m.ff_snapshot() == first);  // unchanged: the same object
    std::vector<std::shared_ptr<const ff::FfState>> seen{first};
    auto apply = [&](size_t i) {
        const Command& c = sc.commands[i];
        std::visit(
            [&](const auto& b) {
                using T = std::decay_t<decltype(b)>;
                if constexpr (std::is_same_v<T, SetRenderState>) m.set_render_state(c.pointer, b);
                else if constexpr (is_ff_state_command_v<T>) m.apply_ff_state(c.pointer, c.body);
            },
            c.body);
    };
    for (size_t i = 0; i + 1 < sc.commands.size(); ++i) {
        apply(i);
        auto now = m.ff_snapshot();
        INFO("after command " << i);
        CHECK(now != seen.back());  // every fixed-function state command makes a new snapshot
        seen.push_back(now);
    }
    CHECK(first->rs.lighting);  // the old snapshot kept its state
    CHECK(first->view == ff::Matrix::identity());
    CHECK(seen.back()->view.at(0, 0) == 4.0f);
    CHECK(seen.back()->viewport.height == 100);
    apply(sc.commands.size() - 1);  // a tessellator state leaves the fixed-function state alone
    CHECK(m.ff_snapshot() == seen.back());
}

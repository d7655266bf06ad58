// Fixed-function draws in the scene machine and the functional executor (docs/fixed-function.md,
// "Fixed-function draws"): the generated program shades every vertex as the reference processor
// does, programs and fixed function share the constant memory with the application's values
// restored before a programmed draw, only changed registers are written, a state beyond the
// device's caps is refused at the draw naming the cap, and equal states are compiled once.
#include "model/ff/ff_compile.h"
#include "model/ff/ff_reference.h"
#include "model/ff/fvf.h"
#include "model/scene/functional.h"
#include "model/scene/scene_machine.h"
#include "model/vs/vs_fetch.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <variant>

using namespace vpsim;
using namespace vpsim::scene;
using Catch::Matchers::Contains;

namespace {

Scene inline_scene(const std::string& commands) {
    return parse_scene(nlohmann::json::parse(
                           R"({"buffers": {"vb": {"vertices": [[0, 0, 0, 0, 0, -1], [1, 0, 0, 0, 0.6, -0.8], [0, 1, 0, 0.6, 0, -0.8]],
                                "layout": ["FLOAT3", "FLOAT3"]}}, "commands": [)" +
                           commands + "]}"),
                       "", "t.json");
}

// Runs a scene's commands through a SceneMachine; the DrawSetup of every draw, in order.
std::vector<DrawSetup> draws_of(SceneMachine& m) {
    std::vector<DrawSetup> out;
    const Scene& sc = m.scene();
    for (size_t i = 0; i < sc.commands.size(); ++i) {
        const Command& c = sc.commands[i];
        std::visit(
            [&](const auto& b) {
                using T = std::decay_t<decltype(b)>;
                const std::string& p = c.pointer;
                if constexpr (std::is_same_v<T, CreateVertexShader>) m.create(p, b);
                else if constexpr (std::is_same_v<T, SetVertexShader>) m.set_shader(p, b);
                else if constexpr (std::is_same_v<T, SetVertexShaderConstant>) m.set_constants(p, b);
                else if constexpr (std::is_same_v<T, SetStreamSource>) m.set_stream(p, b);
                else if constexpr (std::is_same_v<T, SetIndices>) m.set_indices(p, b);
                else if constexpr (std::is_same_v<T, DeletePatch>) m.delete_patch(p, b);
                else if constexpr (std::is_same_v<T, SetRenderState>) m.set_render_state(p, b);
                else if constexpr (is_ff_state_command_v<T>) m.apply_ff_state(p, c.body);
                else if constexpr (std::is_same_v<T, UpdateBuffer>) m.update_buffer(p, b);
                else out.push_back(m.draw(i, p, b));
            },
            c.body);
    }
    return out;
}

// The tolerances tests/test_ff_compile.cpp states per output (docs/fixed-function.md).
// An output the draw's program does not write (`written`, vs::kOut* bits: oD1 when nothing reads
// it, ff::writes_specular) is not compared.
void require_close(const vs::VertexOutputs& want, const vs::VertexOutputs& got, const std::string& where,
                   uint32_t written) {
    auto scale = [](const vs::Vec4& v) {
        double m = 0;
        for (float f : v) m = std::max(m, double(std::fabs(f)));
        return 1 + m;
    };
    auto check = [&](const char* what, double a, double b, double tol) {
        INFO(where << " " << what << ": reference " << a << ", program " << b);
        CHECK(std::fabs(a - b) <= tol);
    };
    for (size_t i = 0; i < 4; ++i) {
        check("oPos", want.pos[i], got.pos[i], 1e-5 * scale(want.pos));
        check("oD0", want.d0[i], got.d0[i], 1e-4);
        if (written & vs::kOutD1) check("oD1", want.d1[i], got.d1[i], 1e-4);
    }
    check("oFog", want.fog, got.fog, 1e-4);
    check("oPts", want.pts, got.pts, 2e-6 * (1 + std::fabs(want.pts)));
    for (size_t t = 0; t < 8; ++t)
        for (size_t i = 0; i < 4; ++i) check("oT", want.t[t][i], got.t[t][i], 1e-6 * scale(want.t[t]));
}

bool same_bits(const vs::Vec4& a, const vs::Vec4& b) { return std::memcmp(a.data(), b.data(), sizeof a) == 0; }

}  // namespace

TEST_CASE("ff draw: the functional executor's vertices of a fixed-function draw equal the reference processor's",
          "[ff][draw]") {
    // Every fixed-function draw of the example scenes (an FVF, a declaration without function over
    // two streams, and draws between programs), every vertex, on the interpreter.
    for (const char* name : {"ff_lit.json", "ff_declaration.json", "ff_mixed.json", "ff_nonaffine.json"}) {
        INFO(name);
        const Scene sc = load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/" + name);
        const FunctionalResult r = run_functional(sc, vs::Profile::d3d8(), reference_shade());
        // The state and inputs each draw carries (the scene machine's, tested in test_ff_scene.cpp).
        SceneMachine m(sc, vs::Profile::d3d8());
        const std::vector<DrawSetup> setups = draws_of(m);
        REQUIRE(setups.size() == r.draws.size());
        size_t ff_draws = 0;
        for (size_t i = 0; i < setups.size(); ++i) {
            const DrawSetup& s = setups[i];
            const DrawResult& d = r.draws[i];
            REQUIRE(s.fixed_function == bool(d.ff_program));
            if (!s.fixed_function) continue;
            ++ff_draws;
            CHECK_THAT(d.shader, Contains(fmt::format("fixed function ({} instructions)", d.ff_program->instructions)));
            REQUIRE(!s.ff_inputs.has(ff::kDeNormal2));  // registers in D3DVSDE numbering as fetched
            for (size_t k = 0; k < d.vertices.size(); ++k) {
                const auto in = vs::fetch_vertex(s.shader->decl, s.streams, d.indices[k]);
                ff::FfRegisters regs{};
                for (size_t j = 0; j < in.size() && j < regs.size(); ++j) regs[j] = in[j];
                const vs::VertexOutputs want = ff::process_vertex(*s.ff_state, s.ff_inputs, regs, m.caps());
                require_close(want, d.vertices[k], fmt::format("draw {} vertex {}", i, d.indices[k]), d.outputs_written);
            }
        }
        CHECK(ff_draws > 0);
    }
}

TEST_CASE("ff draw: with zero output start values (--profile outputs=zero) the vertices are still the reference's",
          "[ff][draw]") {
    // The program leaves oD0.w at its start value only where that is D3D8's alpha (1, with the
    // D3D8 start values): the scene machine compiles with the profile's start values.
    vs::Profile zero = vs::Profile::d3d8();
    zero.outputs = vs::Profile::OutputDefaults::Zero;
    // Its first draw (one directional light, diffuse only, an opaque material) runs on the vertex engine.
    const Scene sc = load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/ff_software.json");
    const FunctionalResult r = run_functional(sc, zero, reference_shade());
    SceneMachine m(sc, zero);
    const std::vector<DrawSetup> setups = draws_of(m);
    REQUIRE(setups.size() == r.draws.size());
    size_t alpha_from_start = 0;
    for (size_t i = 0; i < setups.size(); ++i) {
        const DrawSetup& s = setups[i];
        if (!s.fixed_function || s.software) continue;
        // the same state compiled for D3D8's start values leaves oD0.w unwritten in some draw
        const ff::FfProgram d3d8 = ff::compile(*s.ff_state, s.ff_inputs, m.caps(), sc.const_count);
        if (d3d8.assembly.find("oD0.w") == std::string::npos && d3d8.assembly.find("mul oD0.xyz") != std::string::npos)
            ++alpha_from_start;
        for (size_t k = 0; k < r.draws[i].vertices.size(); ++k) {
            const auto in = vs::fetch_vertex(s.shader->decl, s.streams, r.draws[i].indices[k]);
            ff::FfRegisters regs{};
            for (size_t j = 0; j < in.size() && j < regs.size(); ++j) regs[j] = in[j];
            require_close(ff::process_vertex(*s.ff_state, s.ff_inputs, regs, m.caps()), r.draws[i].vertices[k],
                          fmt::format("draw {} vertex {}", i, r.draws[i].indices[k]), r.draws[i].outputs_written);
        }
    }
    CHECK(alpha_from_start > 0);
}

TEST_CASE("ff draw: Wine's non-affine lit quad (examples/scenes/ff_nonaffine.json) is black through the program",
          "[ff][draw]") {
    // The conformance case of Wine's lighting_test as a scene: Windows draws it black, because the
    // normal goes through the 4x4 world-view matrix's inverse transpose (docs/fixed-function.md).
    const Scene sc = load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/ff_nonaffine.json");
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8());  // the compiled program, interpreted
    REQUIRE(r.draws.size() == 1);
    REQUIRE(r.draws[0].ff_program);
    REQUIRE(r.draws[0].vertices.size() == 4);
    for (const vs::VertexOutputs& o : r.draws[0].vertices) {
        INFO("oD0 (" << o.d0[0] << ", " << o.d0[1] << ", " << o.d0[2] << ", " << o.d0[3] << ")");
        CHECK(o.d0[0] == 0.0f);
        CHECK(o.d0[1] == 0.0f);
        CHECK(o.d0[2] == 0.0f);
        CHECK(o.d0[3] == 1.0f);
        CHECK(o.pos[3] == 10.0f);  // w = -z: on screen
    }
}

TEST_CASE("ff draw: constants the fixed-function draw overwrote are the application's again for the next program draw",
          "[ff][draw]") {
    // Program draw, fixed-function draw, program draw: the second program draw must shade as the
    // first (same c0..c5, same vertices), whatever the fixed-function program loaded.
    const Scene sc = load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/ff_mixed.json");
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8(), reference_shade());
    REQUIRE(r.draws.size() == 4);
    REQUIRE(!r.draws[0].ff_program);
    REQUIRE(r.draws[1].ff_program);
    // The fixed-function program does use c0..c3 (else the test would prove nothing).
    bool overlaps = false;
    for (const auto& [reg, v] : r.draws[1].ff_program->constants) overlaps |= reg < 5;
    REQUIRE(overlaps);
    const DrawResult &a = r.draws[0], &b = r.draws[2];
    REQUIRE(a.vertices.size() == b.vertices.size());
    for (size_t k = 0; k < a.vertices.size(); ++k) {
        INFO("vertex " << a.indices[k]);
        REQUIRE(same_bits(a.vertices[k].pos, b.vertices[k].pos));
        // oD0 = c5 * max(N.L, 0): c5 was (1, 0.5, 0.25, 1), then SetVertexShaderConstant made it (0.25, 1, 0.5, 1).
        const float s = a.vertices[k].d0[3];  // c5.w = 1 times the factor
        CHECK(b.vertices[k].d0[0] == Approx(0.25f * s).margin(1e-6));
        CHECK(b.vertices[k].d0[1] == Approx(1.0f * s).margin(1e-6));
        CHECK(b.vertices[k].d0[2] == Approx(0.5f * s).margin(1e-6));
        CHECK(a.vertices[k].d0[0] == Approx(1.0f * s).margin(1e-6));
    }
}

TEST_CASE("ff draw: the driver writes only registers whose value changes, and restores only what fixed function overwrote",
          "[ff][draw]") {
    const Scene sc = inline_scene(R"J(
        {"op": "CreateVertexShader", "name": "p", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"},
         "function": {"asm": "vs.1.1\nm4x4 oPos, v0, c0"}},
        {"op": "SetVertexShaderConstant", "register": 0, "values": [1,0,0,0, 0,1,0,0, 0,0,1,0, 0,0,0,1]},
        {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24},
        {"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
        {"op": "SetTransform", "state": "VIEW", "matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,5,1]]},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "SetVertexShader", "shader": "p"},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1})J");
    SceneMachine m(sc, vs::Profile::d3d8());
    const std::vector<DrawSetup> d = draws_of(m);
    REQUIRE(d.size() == 4);
    REQUIRE(d[0].fixed_function);
    // First fixed-function draw: every program constant whose value differs from memory
    // (c0..c3 held the identity: the world-view-projection rows with the view's z = 5 differ).
    std::set<uint32_t> written;
    for (const auto& w : d[0].constant_writes) written.insert(w.reg);
    for (const auto& [reg, v] : d[0].ff_program->constants) {
        const bool identity_row = reg < 4 && v == vs::Vec4{reg == 0 ? 1.f : 0.f, reg == 1 ? 1.f : 0.f, reg == 2 ? 1.f : 0.f,
                                                           reg == 3 ? 1.f : 0.f};
        const bool zero = reg >= 4 && v == vs::Vec4{};
        CHECK(written.count(reg) == (identity_row || zero ? 0u : 1u));
    }
    // The same state again: nothing to write; the same program (compiled once).
    CHECK(d[1].constant_writes.empty());
    CHECK(d[1].ff_program == d[0].ff_program);
    CHECK(m.ff_compiles() == 1);
    // The program draw: exactly the overwritten registers, back to the application's values.
    REQUIRE(!d[2].fixed_function);
    std::set<uint32_t> restored;
    for (const auto& w : d[2].constant_writes) {
        restored.insert(w.reg);
        const vs::Vec4 app = w.reg < 4 ? vs::Vec4{w.reg == 0 ? 1.f : 0.f, w.reg == 1 ? 1.f : 0.f, w.reg == 2 ? 1.f : 0.f,
                                                  w.reg == 3 ? 1.f : 0.f}
                                       : vs::Vec4{};
        CHECK(same_bits(w.value, app));
    }
    CHECK(restored == written);
    CHECK(d[3].constant_writes.empty());
}

TEST_CASE("ff draw: more enabled lights than MaxActiveLights is refused at the draw, naming the cap", "[ff][draw]") {
    const Scene sc = inline_scene(R"J(
        {"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
        {"op": "LightEnable", "index": 0, "enable": true},
        {"op": "LightEnable", "index": 5, "enable": true},
        {"op": "LightEnable", "index": 9, "enable": true},
        {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1})J");
    ff::Caps two;
    two.max_active_lights = 2;
    try {
        run_functional(sc, vs::Profile::d3d8(), reference_shade(), {}, two);
        FAIL("3 lights drawn with MaxActiveLights 2");
    } catch (const SceneError& e) {
        CHECK(e.pointer == "/commands/5");
        CHECK_THAT(e.message, Contains("MaxActiveLights"));
    }
    ff::Caps three;
    three.max_active_lights = 3;
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8(), reference_shade(), {}, three);
    REQUIRE(r.draws.size() == 1);
    CHECK(r.draws[0].vertices.size() == 3);
}

TEST_CASE("ff draw: a state change compiles again, an unchanged state does not", "[ff][draw]") {
    const Scene sc = inline_scene(R"J(
        {"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
        {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "SetRenderState", "state": "LIGHTING", "value": false},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1})J");
    SceneMachine m(sc, vs::Profile::d3d8());
    const std::vector<DrawSetup> d = draws_of(m);
    REQUIRE(d.size() == 3);
    CHECK(m.ff_compiles() == 2);
    CHECK(d[1].ff_program == d[2].ff_program);
    CHECK(d[0].ff_program->assembly != d[1].ff_program->assembly);
}

TEST_CASE("ff draw: a declaration without function draws, and NORMAL2 (v16) reaches the program for tweening", "[ff][draw]") {
    // One stream: POSITION, NORMAL, POSITION2, NORMAL2 (D3DVSDE 0, 3, 15, 16), 12 floats a vertex.
    const float data[3][12] = {{0, 0, 0, 0, 0, -1, 1, 0, 0, 0, 1, 0},
                               {1, 0, 0, 0, 0.6f, -0.8f, 1, 1, 0, 0.6f, 0, -0.8f},
                               {0, 1, 0, 1, 0, 0, 0, 2, 0.5f, 0, 0, -1}};
    nlohmann::json verts = nlohmann::json::array();
    for (const auto& v : data) verts.push_back(std::vector<float>(v, v + 12));
    nlohmann::json j = nlohmann::json::parse(R"J({"buffers": {"vb": {"layout": ["FLOAT3", "FLOAT3", "FLOAT3", "FLOAT3"]}},
      "commands": [
        {"op": "CreateVertexShader", "name": "tween",
         "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_POSITION2, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_NORMAL2, D3DVSDT_FLOAT3), D3DVSD_END()"},
         "function": null},
        {"op": "SetVertexShader", "shader": "tween"},
        {"op": "SetRenderState", "state": "VERTEXBLEND", "value": "TWEENING"},
        {"op": "SetRenderState", "state": "TWEENFACTOR", "value": 0.25},
        {"op": "SetTransform", "state": "VIEW", "matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[0,0,4,1]]},
        {"op": "SetLight", "index": 0, "light": {"type": "DIRECTIONAL", "diffuse": [1, 1, 1, 1], "direction": [0, 0, 1]}},
        {"op": "LightEnable", "index": 0, "enable": true},
        {"op": "SetMaterial", "material": {"diffuse": [1, 0.5, 0.25, 1]}},
        {"op": "SetRenderState", "state": "DIFFUSEMATERIALSOURCE", "value": "MATERIAL"},
        {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 48},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1}]})J");
    j["buffers"]["vb"]["vertices"] = verts;
    const Scene sc = parse_scene(j, "", "tween.json");
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8(), reference_shade());
    REQUIRE(r.draws.size() == 1);
    REQUIRE(r.draws[0].ff_program);
    REQUIRE(r.draws[0].ff_program->input_map[ff::kDeNormal2] >= 0);  // the program reads NORMAL2
    SceneMachine m(sc, vs::Profile::d3d8());
    (void)draws_of(m);
    for (uint32_t k = 0; k < 3; ++k) {
        ff::FfRegisters regs{};
        regs[ff::kDePosition] = {data[k][0], data[k][1], data[k][2], 1};
        regs[ff::kDeNormal] = {data[k][3], data[k][4], data[k][5], 1};
        regs[ff::kDePosition2] = {data[k][6], data[k][7], data[k][8], 1};
        regs[ff::kDeNormal2] = {data[k][9], data[k][10], data[k][11], 1};
        const vs::VertexOutputs want = ff::process_vertex(m.ff_state(), m.ff_inputs(), regs, m.caps());
        require_close(want, r.draws[0].vertices[k], fmt::format("vertex {}", k), r.draws[0].outputs_written);
    }
    // Hand-computed for vertex 1: the normal tweened (1 - 0.25) (0, 0.6, -0.8) + 0.25 (0.6, 0, -0.8) =
    // (0.15, 0.45, -0.8); N.L with the light towards -z: 0.8; diffuse = (1, 0.5, 0.25) x 0.8.
    CHECK(r.draws[0].vertices[1].d0[0] == Approx(0.8f).margin(1e-4));
    CHECK(r.draws[0].vertices[1].d0[1] == Approx(0.4f).margin(1e-4));
    CHECK(r.draws[0].vertices[1].d0[2] == Approx(0.2f).margin(1e-4));
}

TEST_CASE("ff draw: indexed blending draws within MaxVertexBlendMatrixIndex and refuses a vertex beyond it", "[ff][draw]") {
    // XYZB2 | LASTBETA_UBYTE4: one weight and UBYTE4 indices; 1WEIGHTS blends two matrices.
    auto scene_with = [](int index) {
        nlohmann::json j = nlohmann::json::parse(R"J({"buffers": {"vb": {"layout": ["FLOAT3", "FLOAT1", "UBYTE4", "FLOAT3"]}},
          "commands": [
            {"op": "SetVertexShader", "fvf": "D3DFVF_XYZB2|D3DFVF_LASTBETA_UBYTE4|D3DFVF_NORMAL"},
            {"op": "SetRenderState", "state": "VERTEXBLEND", "value": "1WEIGHTS"},
            {"op": "SetRenderState", "state": "INDEXEDVERTEXBLENDENABLE", "value": true},
            {"op": "SetTransform", "state": "WORLDMATRIX(5)", "matrix": [[1,0,0,0],[0,1,0,0],[0,0,1,0],[2,0,0,1]]},
            {"op": "SetTransform", "state": "WORLDMATRIX(8)", "matrix": [[0,1,0,0],[-1,0,0,0],[0,0,1,0],[0,3,0,1]]},
            {"op": "SetLight", "index": 0, "light": {"type": "DIRECTIONAL", "diffuse": [1, 1, 1, 1], "direction": [0, 0, 1]}},
            {"op": "LightEnable", "index": 0, "enable": true},
            {"op": "SetMaterial", "material": {"diffuse": [1, 1, 1, 1]}},
            {"op": "SetRenderState", "state": "DIFFUSEMATERIALSOURCE", "value": "MATERIAL"},
            {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 32},
            {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1}]})J");
        j["buffers"]["vb"]["vertices"] = {{0, 0, 0, 0.25, 5, 8, 0, 0, 0, 0.6, -0.8},
                                          {1, 0, 0, 0.5, 0, 5, 0, 0, 0, 0, -1},
                                          {0, 1, 0, 1, index, 0, 0, 0, 0.6, 0, -0.8}};
        return parse_scene(j, "", "indexed.json");
    };
    ff::Caps caps;
    caps.max_vertex_blend_matrix_index = 8;
    const Scene ok = scene_with(8);
    const FunctionalResult r = run_functional(ok, vs::Profile::d3d8(), reference_shade(), {}, caps);
    REQUIRE(r.draws.size() == 1);
    SceneMachine m(ok, vs::Profile::d3d8(), {}, caps);
    const std::vector<DrawSetup> d = draws_of(m);
    for (size_t k = 0; k < 3; ++k) {
        const auto in = vs::fetch_vertex(d[0].shader->decl, d[0].streams, uint32_t(k));
        ff::FfRegisters regs{};
        for (size_t j = 0; j < in.size(); ++j) regs[j] = in[j];
        require_close(ff::process_vertex(*d[0].ff_state, d[0].ff_inputs, regs, caps), r.draws[0].vertices[k],
                      fmt::format("vertex {}", k), r.draws[0].outputs_written);
    }
    // Vertex 1 by hand: 0.5 x WORLDMATRIX(0) (identity) + 0.5 x WORLDMATRIX(5) (x + 2): (1, 0, 0) -> (2, 0, 0);
    // VIEW and PROJECTION identity: oPos = (2, 0, 0, 1).
    CHECK(r.draws[0].vertices[1].pos[0] == Approx(2.0f).margin(1e-5));
    CHECK(r.draws[0].vertices[1].pos[1] == Approx(0.0f).margin(1e-5));
    // Index 9 on a device whose MaxVertexBlendMatrixIndex is 8: refused at the draw, naming the vertex and the cap.
    try {
        run_functional(scene_with(9), vs::Profile::d3d8(), reference_shade(), {}, caps);
        FAIL("a blend index beyond the cap was drawn");
    } catch (const SceneError& e) {
        CHECK(e.pointer == "/commands/10");
        CHECK_THAT(e.message, Contains("vertex 2") && Contains("MaxVertexBlendMatrixIndex"));
    }
}

// ---------------------------------------------------------------- software and mixed vertex processing

namespace {
Scene device_scene(const std::string& flags, const std::string& commands) {
    return parse_scene(nlohmann::json::parse(
                           R"({"device": {"behavior_flags": ")" + flags +
                           R"("}, "buffers": {"vb": {"vertices": [[0, 0, 0, 0, 0, -1], [1, 0, 0, 0, 0.6, -0.8], [0, 1, 0, 0.6, 0, -0.8]],
                                "layout": ["FLOAT3", "FLOAT3"]}}, "commands": [)" +
                           commands + "]}"),
                       "", "t.json");
}
const char* kLitTriangle = R"({"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
    {"op": "SetMaterial", "material": {"diffuse": [0.8, 0.6, 0.4, 1]}},
    {"op": "LightEnable", "index": 0, "enable": true},
    {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24})";
// What the hardware receives from the runtime: positions and texture coordinates as the CPU
// computed them, colours as D3DCOLOR (within half a step of 1/255), the fog factor likewise.
void check_pretransformed(const vs::VertexOutputs& cpu, const vs::VertexOutputs& hw) {
    for (size_t i = 0; i < 4; ++i) {
        CHECK(hw.pos[i] == cpu.pos[i]);
        CHECK(std::fabs(hw.d0[i] - cpu.d0[i]) <= 0.5f / 255 + 1e-6f);
        CHECK(hw.t[0][i] == cpu.t[0][i]);
    }
    CHECK(std::fabs(hw.fog - cpu.fog) <= 0.5f / 255 + 1e-6f);
}
}  // namespace

TEST_CASE("software vertex processing: the draw's vertices are the reference processor's, colours as D3DCOLOR",
          "[ff][draw][software]") {
    // A SOFTWARE device: the CPU lights the vertices (the reference processor), the vertex engine
    // passes them through unchanged.
    const Scene sc = device_scene("D3DCREATE_SOFTWARE_VERTEXPROCESSING", std::string(kLitTriangle) +
                                  R"(, {"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 1})");
    SceneMachine m(sc, vs::Profile::d3d8());
    const std::vector<DrawSetup> setups = draws_of(m);
    REQUIRE(setups.size() == 1);
    REQUIRE(setups[0].software);
    CHECK(!setups[0].fixed_function);  // the hardware runs the pass-through program
    CHECK(setups[0].software->processed == 3);
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8());
    // The same state through the reference processor directly.
    ff::FfState state;
    state.material.diffuse = {0.8f, 0.6f, 0.4f, 1};
    state.lights[0] = {ff::Light{}, true};
    state.lights[0].light.diffuse = {1, 1, 1, 0};
    state.lights[0].light.direction = {0, 0, 1};
    ff::FfInputs in;
    in.loaded = (1u << ff::kDePosition) | (1u << ff::kDeNormal);
    in.components[ff::kDePosition] = in.components[ff::kDeNormal] = 3;
    const float vb[3][6] = {{0, 0, 0, 0, 0, -1}, {1, 0, 0, 0, 0.6f, -0.8f}, {0, 1, 0, 0.6f, 0, -0.8f}};
    for (size_t k = 0; k < 3; ++k) {
        ff::FfRegisters regs{};
        regs[ff::kDePosition] = {vb[k][0], vb[k][1], vb[k][2], 1};
        regs[ff::kDeNormal] = {vb[k][3], vb[k][4], vb[k][5], 1};
        const vs::VertexOutputs want = ff::process_vertex(state, in, regs, m.caps());
        INFO("vertex " << k << " oD0 " << r.draws[0].vertices[k].d0[0] << " want " << want.d0[0]);
        check_pretransformed(want, r.draws[0].vertices[k]);
    }
}

TEST_CASE("software vertex processing: a program's vertices are the hardware's, colours as D3DCOLOR", "[draw][software]") {
    const std::string cmds = R"J({"op": "CreateVertexShader", "name": "t",
        "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(3, D3DVSDT_FLOAT3), D3DVSD_END()"},
        "function": {"asm": "vs.1.1\nm4x4 oPos, v0, c0\ndp3 r0.x, v3, c4\nmul oD0, r0.x, c5\nmov oT0, v3\n"}},
        {"op": "SetVertexShader", "shader": "t"},
        {"op": "SetVertexShaderConstant", "register": 0, "values": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1], [0, 0, -1, 0], [0.5, 0.25, 1, 1]]},
        {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24},
        {"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 1})J";
    const FunctionalResult hw = run_functional(device_scene("HARDWARE_VERTEXPROCESSING", cmds), vs::Profile::d3d8());
    const Scene sw_scene = device_scene("SOFTWARE_VERTEXPROCESSING", cmds);
    const FunctionalResult sw = run_functional(sw_scene, vs::Profile::d3d8());
    REQUIRE(sw.draws.size() == 1);
    CHECK_THAT(sw.draws[0].shader, Contains("software vertex processing"));
    for (size_t k = 0; k < 3; ++k) check_pretransformed(hw.draws[0].vertices[k], sw.draws[0].vertices[k]);
    SceneMachine m(sw_scene, vs::Profile::d3d8());
    const std::vector<DrawSetup> setups = draws_of(m);
    REQUIRE(setups[0].software);
    CHECK(setups[0].software->program_slots == 7);  // m4x4 (4) + dp3 + mul + mov, run on the CPU
}

TEST_CASE("mixed vertex processing: D3DRS_SOFTWAREVERTEXPROCESSING picks the caps of each draw", "[ff][draw][software]") {
    // Indexed blending with matrix index 200: refused in hardware (MaxVertexBlendMatrixIndex 0),
    // drawn in software (255).
    const std::string blend = R"({"op": "SetVertexShader", "fvf": "D3DFVF_XYZB1|D3DFVF_LASTBETA_UBYTE4"},
        {"op": "SetRenderState", "state": "VERTEXBLEND", "value": "0WEIGHTS"},
        {"op": "SetRenderState", "state": "INDEXEDVERTEXBLENDENABLE", "value": true},
        {"op": "SetTransform", "state": 456, "matrix": [[2, 0, 0, 0], [0, 2, 0, 0], [0, 0, 2, 0], [0, 0, 0, 1]]},
        {"op": "SetStreamSource", "stream": 0, "buffer": "ib", "stride": 16})";
    const auto scene_with = [&](const std::string& flags, bool sw) {
        return parse_scene(nlohmann::json::parse(
                               R"({"device": {"behavior_flags": ")" + flags +
                               R"("}, "buffers": {"ib": {"vertices": [[0, 0, 0, "0x000000C8"], [1, 0, 0, "0x000000C8"], [0, 1, 0, "0x000000C8"]],
                                    "layout": ["FLOAT3", "D3DCOLOR"]}}, "commands": [)" +
                               blend +
                               (sw ? R"(, {"op": "SetRenderState", "state": "SOFTWAREVERTEXPROCESSING", "value": true})" : "") +
                               R"(, {"op": "DrawPrimitive", "type": "trianglelist", "start_vertex": 0, "primitive_count": 1}]})"),
                           "", "t.json");
    };
    CHECK_THROWS_WITH(run_functional(scene_with("MIXED_VERTEXPROCESSING", false), vs::Profile::d3d8()),
                      Contains("MaxVertexBlendMatrixIndex"));
    const FunctionalResult r = run_functional(scene_with("MIXED_VERTEXPROCESSING", true), vs::Profile::d3d8());
    REQUIRE(r.draws.size() == 1);
    CHECK(r.draws[0].vertices[1].pos[0] == 2.0f);  // WORLDMATRIX(200) = scale 2 (state 256 + 200 = 456)
    // The state is the MIXED device's alone.
    CHECK_THROWS_WITH(run_functional(scene_with("HARDWARE_VERTEXPROCESSING", true), vs::Profile::d3d8()),
                      Contains("D3DRS_SOFTWAREVERTEXPROCESSING is only valid on a device created with "
                               "D3DCREATE_MIXED_VERTEXPROCESSING; this scene's device is HARDWARE"));
}

TEST_CASE("a scene's device names one vertex processing flag", "[scene][software]") {
    CHECK_THROWS_WITH(device_scene("D3DCREATE_PUREDEVICE", ""),
                      Contains("/device/behavior_flags: expected one of D3DCREATE_HARDWARE_VERTEXPROCESSING"));
    CHECK(device_scene("MIXED_VERTEXPROCESSING", "").vertex_processing == VertexProcessing::Mixed);
    CHECK(device_scene("D3DCREATE_SOFTWARE_VERTEXPROCESSING", "").vertex_processing == VertexProcessing::Software);
}

TEST_CASE("ff draw: machines sharing a program cache compile each state once between them, with the same draws",
          "[ff][draw][cache]") {
    const Scene sc = inline_scene(R"J(
        {"op": "CreateVertexShader", "name": "p", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"},
         "function": {"asm": "vs.1.1\nm4x4 oPos, v0, c0"}},
        {"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL"},
        {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 24},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "SetRenderState", "state": "LIGHTING", "value": false},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1},
        {"op": "SetVertexShader", "shader": "p"},
        {"op": "DrawPrimitive", "type": "trianglelist", "primitive_count": 1})J");
    SceneMachine alone(sc, vs::Profile::d3d8());
    const std::vector<DrawSetup> want = draws_of(alone);
    auto cache = std::make_shared<ProgramCache>();
    SceneMachine first(sc, vs::Profile::d3d8()), second(sc, vs::Profile::d3d8());
    first.share_programs(cache);
    second.share_programs(cache);
    const std::vector<DrawSetup> a = draws_of(first);
    const uint64_t made = cache->misses(), hits = cache->hits();
    const std::vector<DrawSetup> b = draws_of(second);
    CHECK(made >= 3);  // the created shader, and at least one program and its shader
    // The second machine makes nothing: the created shader, the two programs and their shaders
    // all come from the cache.
    CHECK(cache->misses() == made);
    CHECK(cache->hits() - hits == 5);
    REQUIRE(a.size() == 3);
    REQUIRE(b.size() == 3);
    for (size_t i = 0; i < 2; ++i) {
        CHECK(b[i].ff_program == a[i].ff_program);  // the first machine's program
        CHECK(b[i].ff_program->assembly == want[i].ff_program->assembly);
        CHECK(b[i].ff_program->constants == want[i].ff_program->constants);
        REQUIRE(b[i].constant_writes.size() == want[i].constant_writes.size());
        for (size_t k = 0; k < b[i].constant_writes.size(); ++k) {
            CHECK(b[i].constant_writes[k].reg == want[i].constant_writes[k].reg);
            CHECK(same_bits(b[i].constant_writes[k].value, want[i].constant_writes[k].value));
        }
    }
    // The driver's compiles are counted per machine, as without the cache.
    CHECK(second.ff_compiles() == alone.ff_compiles());
    // Shaders stay each machine's own objects (the timing model tells shaders apart by address).
    for (size_t i = 0; i < 3; ++i) CHECK(b[i].shader != a[i].shader);
    CHECK(b[2].shader->program->tokens == want[2].shader->program->tokens);
}

TEST_CASE("ff draw: the program cache's state key changes with every field of the state", "[ff][cache]") {
    const ff::FfState base;
    CHECK(ff_state_key(base) == ff_state_key(ff::FfState{}));
    ff::FfState lit;  // the changes start from a state with light 3
    lit.lights[3] = {};
    std::set<std::string> keys{ff_state_key(base)};
    CHECK(keys.insert(ff_state_key(lit)).second);
    std::vector<std::pair<const char*, std::function<void(ff::FfState&)>>> changes = {
        {"world 255", [](ff::FfState& s) { s.world[255].m[15] = 2; }},
        {"view", [](ff::FfState& s) { s.view.m[0] = 2; }},
        {"projection", [](ff::FfState& s) { s.projection.m[11] = 1; }},
        {"texture 7", [](ff::FfState& s) { s.texture[7].m[3] = 1; }},
        {"a light's index", [](ff::FfState& s) { s.lights[4] = {}; }},
        {"a light's enable", [](ff::FfState& s) { s.lights[3].enabled = true; }},
        {"a light's phi", [](ff::FfState& s) { s.lights[3].light.phi = 1; }},
        {"a light's type", [](ff::FfState& s) { s.lights[3].light.type = ff::LightType::Spot; }},
        {"material power", [](ff::FfState& s) { s.material.power = 1; }},
        {"material emissive", [](ff::FfState& s) { s.material.emissive[3] = 1; }},
        {"lighting", [](ff::FfState& s) { s.rs.lighting = false; }},
        {"clipping", [](ff::FfState& s) { s.rs.clipping = false; }},
        {"ambient", [](ff::FfState& s) { s.rs.ambient = 1; }},
        {"emissive source", [](ff::FfState& s) { s.rs.emissivematerialsource = ff::MaterialSource::Color2; }},
        {"fog table mode", [](ff::FfState& s) { s.rs.fogtablemode = ff::FogMode::Linear; }},
        {"point scale c", [](ff::FfState& s) { s.rs.pointscale_c = 1; }},
        {"vertex blend", [](ff::FfState& s) { s.rs.vertexblend = ff::VertexBlend::Weights1; }},
        {"clip planes", [](ff::FfState& s) { s.rs.clipplaneenable = 1; }},
        {"stage 7 result", [](ff::FfState& s) { s.stages[7].resultarg = ff::kTaTemp; }},
        {"viewport height", [](ff::FfState& s) { s.viewport.height = 1; }},
        {"viewport maxz", [](ff::FfState& s) { s.viewport.maxz = 0.5f; }},
        {"minus zero", [](ff::FfState& s) { s.viewport.minz = -0.0f; }},  // the bits, not the value
    };
    for (const auto& [what, change] : changes) {
        ff::FfState s = lit;
        change(s);
        INFO(what);
        CHECK(keys.insert(ff_state_key(s)).second);
    }
}

TEST_CASE("ff draw: a program cache keeps nothing of a compile that throws", "[ff][cache]") {
    ProgramCache cache;
    const ff::FfState s;
    const ff::FfInputs in;
    CHECK_THROWS_AS(cache.ff_program(s, in, 96, []() -> ff::FfProgram { throw ff::FfError("refused"); }), ff::FfError);
    int made = 0;
    const auto p = cache.ff_program(s, in, 96, [&] {
        ++made;
        ff::FfProgram q;
        q.instructions = 7;
        return q;
    });
    CHECK(made == 1);
    CHECK(p->instructions == 7);
    CHECK(cache.ff_program(s, in, 96, [&] { ++made; return ff::FfProgram{}; }) == p);
    CHECK(made == 1);
}

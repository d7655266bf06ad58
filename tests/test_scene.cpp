// Scenes: the JSON parser's errors, the generators, primitive assembly counts, the functional
// executor, the default scene and the example scenes (docs/scenes.md).
#include "model/decl/decl_text.h"
#include "model/scene/default_scene.h"
#include "model/scene/functional.h"
#include "model/scene/generators.h"
#include "model/scene/grid_cache_order.h"
#include "model/scene/scene_hash.h"
#include "model/scene/scene_lift.h"
#include "model/common/base64.h"
#include "model/common/fnv.h"
#include "tests/test_temp_file.h"
#include "model/vs/vs_asm.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <random>
#include <set>
#include <variant>

using namespace vpsim;
using namespace vpsim::scene;
using Catch::Matchers::Contains;
using Catch::Matchers::Equals;
using Catch::Matchers::StartsWith;

namespace {

Scene parse(const std::string& text) { return parse_scene(nlohmann::json::parse(text), "", "t.json"); }

std::string error_of(const std::string& text) {
    try {
        run_functional(parse(text), vs::Profile::d3d8());
    } catch (const SceneError& e) {
        return e.what();
    }
    return "(no error)";
}

const char* const kSmall = R"({
  "buffers": {
    "vb": {"layout": ["FLOAT3", "D3DCOLOR"], "vertices": [
      [0, 0, 0, "0xFF0000FF"], [1, 0, 0, "0x80FF0000"], [0, 1, 0, 16711680], [1, 1, 0, "#FFFFFFFF"],
      [0.5, 2, 0, "0x00000000"], [2, 2, 1, "0x12345678"]]},
    "ib": {"format": "INDEX16", "indices": [0, 1, 2, 2, 1, 3, 3, 4, 5]}
  },
  "commands": [
    {"op": "CreateVertexShader", "name": "s",
     "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(5, D3DVSDT_D3DCOLOR), D3DVSD_CONST(1, 1), 0.5f, 2.0f, -1.0f, 1.0f, D3DVSD_END() "},
     "function": {"asm": "vs.1.1\ndp4 oPos.x, v0, c0\nmul oPos.yzw, v0, c1\nmov r0, c2\nmad oD0, v5, c1.x, r0\nmul oFog.x, v0.y, c1.x\n"}},
    {"op": "SetVertexShader", "shader": "s"},
    {"op": "SetVertexShaderConstant", "register": 0, "values": [[1, 2, 3, 4], [0.25, 0, 0, 0]]},
    {"op": "SetVertexShaderConstant", "register": 2, "values": [0.125, 0.25, 0.5, 1]},
    {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 16},
    {"op": "SetIndices", "buffer": "ib", "base_vertex": 0},
    {"op": "DrawIndexedPrimitive", "type": "trianglelist", "min_index": 0, "num_vertices": 6, "start_index": 0, "primitive_count": 3},
    {"op": "DrawPrimitive", "type": "trianglestrip", "start_vertex": 1, "primitive_count": 3}
  ]
})";

}  // namespace

TEST_CASE("scene parser errors name the JSON pointer and what was expected", "[scene]") {
    auto err = [](const std::string& text) -> std::string {
        try {
            parse(text);
        } catch (const SceneError& e) {
            return e.what();
        }
        return "(no error)";
    };
    const std::string shader =
        R"({"op": "CreateVertexShader", "name": "s", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END() "}, "function": {"asm": "vs.1.1\nmov oPos, v0\n"}})";
    CHECK_THAT(err(R"({"buffers": {"b": {"bytes": [1, 2]}}, "commands": [)" + shader +
                   R"(, {"op": "SetStreamSource", "stream": 0, "buffer": "b", "stride": 0}]})"),
               Equals("t.json: /commands/1/stride: expected a positive integer, found 0"));
    CHECK_THAT(err(R"({"buffers": {"b": {"bytes": [1, 2]}}, "commands": [)" + shader +
                   R"(, {"op": "SetStreamSource", "stream": 0, "buffer": "b", "stride": "x"}]})"),
               Equals("t.json: /commands/1/stride: expected a positive integer, found a string"));
    CHECK_THAT(err(R"({"commands": [{"op": "SetStreamSource", "stream": 16, "buffer": null}]})"),
               Equals("t.json: /commands/0/stream: expected a stream number 0..15, found 16"));
    CHECK_THAT(err(R"({"commands": [{"op": "DrawPrimitive", "type": "quadlist", "primitive_count": 1}]})"),
               StartsWith("t.json: /commands/0/type: expected a primitive type"));
    CHECK_THAT(err(R"({"commands": [{"op": "Draw"}]})"), StartsWith("t.json: /commands/0/op: expected CreateVertexShader"));
    CHECK_THAT(err(R"({"commands": [{"op": "SetVertexShader", "shader": "nope"}]})"),
               StartsWith("t.json: /commands/0/shader: expected the name of a shader created"));
    CHECK_THAT(err(R"({"buffers": {"m": {"generator": "sphere", "slices": 0, "streams": {}}}, "commands": []})"),
               Equals("t.json: /buffers/m/slices: expected a number of slices 1..4096, found 0"));
    CHECK_THAT(err(R"({"buffers": {"m": {"generator": "grid", "streams": {"s": [{"attribute": "position", "type": "FLOAT5"}]}}}, "commands": []})"),
               StartsWith("t.json: /buffers/m/streams/s/0/type: expected a D3DVSDT type name"));
    CHECK_THAT(err(R"({"buffers": {"v": {"layout": ["FLOAT2"], "vertices": [[1, 2], [3]]}}, "commands": []})"),
               StartsWith("t.json: /buffers/v/vertices/1: expected an array of 2 values"));
    CHECK_THAT(err(R"({"buffers": {"i": {"format": "INDEX16", "indices": [1, 70000]}}, "commands": []})"),
               Equals("t.json: /buffers/i/indices/1: expected an index 0..65535, found 70000"));
    CHECK_THAT(err(R"({"buffers": {"i": {"format": "INDEX32", "indices": [1, -1]}}, "commands": []})"),
               Equals("t.json: /buffers/i/indices/1: expected an index 0..4294967295, found -1"));
    CHECK_THAT(err(R"({"buffers": {"b": {"bytes": [0, 255, 256]}}, "commands": []})"),
               Equals("t.json: /buffers/b/bytes/2: expected a byte 0..255, found 256"));
    CHECK_THAT(err(R"({"buffers": {"b": {"bytes": [7, -3]}}, "commands": []})"),
               Equals("t.json: /buffers/b/bytes/1: expected a byte 0..255, found -3"));
    CHECK_THAT(err(R"({"buffers": {"b": {"bytes": [7, 1.5]}}, "commands": []})"),
               StartsWith("t.json: /buffers/b/bytes/1: expected a byte 0..255, found"));
    CHECK_THAT(err(R"({"commands": [{"op": "SetVertexShaderConstant", "register": 0, "values": [[1, 2, 3]]}]})"),
               Equals("t.json: /commands/0/values/0: expected an array of 4 numbers [x, y, z, w], found an array"));
    CHECK_THAT(err(R"({"commands": [{"op": "CreateVertexShader", "name": "s", "declaration": {"text": "D3DVSD_END() "}, "function": {"asm": "vs.1.1\nmov oPos, q0\n"}}]})"),
               StartsWith("t.json: /commands/0/function: t.json:/commands/0/function/asm:2:"));
    CHECK_THAT(err(R"({"commands": [], "extra": 1})"), StartsWith("t.json: /extra: unknown key \"extra\""));
    CHECK_THAT(err(R"({"buffers": {}})"), StartsWith("t.json: missing \"commands\""));
    CHECK_THAT(err(R"({"commands": [{"op": "SetIndices", "buffer": "none"}]})"),
               StartsWith("t.json: /commands/0/buffer: expected the name of an index buffer, found \"none\""));
}

TEST_CASE("scene run-time errors name the command", "[scene]") {
    const std::string head = R"({"buffers": {"vb": {"bytes": [0,0,0,0, 0,0,0,0, 0,0,0,0]}, "ib": {"format": "INDEX16", "indices": [0, 5, 0]}},
      "commands": [{"op": "CreateVertexShader", "name": "s", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END() "}, "function": {"asm": "vs.1.1\nmov oPos, v0\n"}},
                   {"op": "SetVertexShader", "shader": "s"},)";
    CHECK_THAT(error_of(head + R"({"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 8},
        {"op": "DrawPrimitive", "type": "pointlist", "primitive_count": 1}]})"),
               StartsWith("t.json: /commands/3: shader \"s\": stream 0") && Contains("stride 8 is smaller"));
    CHECK_THAT(error_of(head + R"({"op": "DrawPrimitive", "type": "pointlist", "primitive_count": 1}]})"),
               StartsWith("t.json: /commands/2: shader \"s\": stream 0") && Contains("not bound"));
    CHECK_THAT(error_of(head + R"({"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 12},
        {"op": "DrawPrimitive", "type": "linelist", "primitive_count": 1}]})"),
               StartsWith("t.json: /commands/3: shader \"s\": stream 0") && Contains("past the end"));
    CHECK_THAT(error_of(head + R"({"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 12},
        {"op": "SetIndices", "buffer": "ib"},
        {"op": "DrawIndexedPrimitive", "type": "trianglelist", "num_vertices": 1, "primitive_count": 1}]})"),
               StartsWith("t.json: /commands/4: index 5 (position 1 in \"ib\") is outside"));
    CHECK_THAT(error_of(head + R"({"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 12},
        {"op": "SetIndices", "buffer": "ib"},
        {"op": "DrawIndexedPrimitive", "type": "linestrip", "primitive_count": 3}]})"),
               StartsWith("t.json: /commands/4: 3 linestrip read indices 0..3, but index buffer \"ib\" holds 3"));
    CHECK_THAT(error_of(R"({"commands": [{"op": "DrawPrimitive", "type": "pointlist", "primitive_count": 1}]})"),
               StartsWith("t.json: /commands/0: no vertex shader is set"));
    CHECK_THAT(error_of(R"({"commands": [{"op": "CreateVertexShader", "name": "s", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_END() "}, "function": {"asm": "vs.1.1\nmov oPos, v3\n"}}]})"),
               StartsWith("t.json: /commands/0: CreateVertexShader \"s\" failed"));
}

TEST_CASE("generators: counts, strides and exact values", "[scene]") {
    GenParams p;
    p.shape = Shape::Grid;
    p.columns = 4, p.rows = 2, p.size = 2.0f;
    p.streams = {{"a", {{Attribute::Position, decl::D3DVSDT_FLOAT3, 1}, {Attribute::Color, decl::D3DVSDT_D3DCOLOR, 1}}},
                 {"b", {{Attribute::Normal, decl::D3DVSDT_SHORT4, 32767}, {Attribute::Texcoord, decl::D3DVSDT_FLOAT2, 1}}}};
    const GenResult r = generate(p);
    CHECK(r.vertex_count == 15);
    CHECK(r.triangle_count == 16);
    REQUIRE(r.strides == std::vector<uint32_t>{16, 16});
    CHECK(r.streams[0].size() == 15 * 16);
    CHECK(r.indices.size() == 48 * 2);
    // Vertex 6 = column 1, row 1: position (-0.5, 0, 0); colour (u, v, 1 - u) = (0.25, 0.5, 0.75).
    float pos[3];
    std::memcpy(pos, r.streams[0].data() + 6 * 16, 12);
    CHECK(pos[0] == -0.5f);
    CHECK(pos[1] == 0.0f);
    CHECK(pos[2] == 0.0f);
    const uint8_t* c = r.streams[0].data() + 6 * 16 + 12;
    CHECK(int(c[0]) == 191);  // B = round(0.75 * 255)
    CHECK(int(c[1]) == 128);  // G
    CHECK(int(c[2]) == 64);   // R
    CHECK(int(c[3]) == 255);  // A
    const uint8_t* n = r.streams[1].data() + 6 * 16;
    CHECK(int16_t(n[4] | n[5] << 8) == -32767);  // normal z = -1
    // First triangles: (0, 5, 1), (1, 5, 6).
    auto idx = [&](size_t k) { return uint32_t(r.indices[2 * k] | r.indices[2 * k + 1] << 8); };
    CHECK(idx(0) == 0);
    CHECK(idx(1) == 5);
    CHECK(idx(2) == 1);
    CHECK(idx(5) == 6);

    GenParams s;
    s.shape = Shape::Sphere;
    s.columns = 8, s.rows = 4, s.radius = 2.0f;
    const GenAttributes a = generate_attributes(s);
    REQUIRE(a.position.size() == 45);
    CHECK(a.position[0][1] == 2.0f);   // north pole
    CHECK(a.position[44][1] == -2.0f); // south pole
    CHECK(generate_triangles(s).size() == 8 * 4 * 6);

    GenParams t;
    t.shape = Shape::Torus;
    t.columns = 6, t.rows = 3, t.radius = 1.0f, t.tube = 0.25f, t.index_size = 4, t.bones = 3;
    t.streams = {{"s", {{Attribute::BlendIndices, decl::D3DVSDT_UBYTE4, 1}, {Attribute::BlendWeight, decl::D3DVSDT_FLOAT2, 1}}}};
    const GenResult tr = generate(t);
    CHECK(tr.vertex_count == 28);
    CHECK(tr.indices.size() == 36 * 3 * 4);
    const GenAttributes ta = generate_attributes(t);
    CHECK(ta.position[0][0] == 1.25f);  // ring angle 0, tube angle 0: (R + r, 0, 0)
    // Last row (v = 1): bones 1 and 2, weights (0, 1).
    CHECK(tr.streams[0][27 * 12 + 0] == 1);
    CHECK(tr.streams[0][27 * 12 + 1] == 2);
    // Same parameters, same bytes.
    CHECK(generate(t).streams == tr.streams);

    GenParams big = p;
    big.columns = 300, big.rows = 300;
    CHECK_THROWS_WITH(generate(big), Contains("do not fit 16-bit indices"));
}

TEST_CASE("generators: the optimised order is meshoptimizer's, byte for byte", "[scene]") {
    // grid_cache_order computes meshopt_optimizeVertexCache's order of a generated grid without
    // its working memory; here meshoptimizer itself orders the same row-order list.
    const std::pair<uint32_t, uint32_t> shapes[] = {{1, 1}, {1, 7}, {7, 1}, {2, 2}, {3, 5}, {16, 8},
                                                    {33, 17}, {99, 99}, {255, 3}, {400, 300},
                                                    // Long rows and long columns: the cache list
                                                    // is moved back to its room's end many times.
                                                    {1500, 40}, {3, 1000}, {1000, 7}};
    for (const auto& [cols, rows] : shapes) {
        INFO(cols << " x " << rows);
        GenParams p;
        p.columns = cols, p.rows = rows;
        const std::vector<uint32_t> raw = generate_triangles(p);
        std::vector<uint32_t> expected(raw.size());
        meshopt_optimizeVertexCache(expected.data(), raw.data(), raw.size(), size_t(cols + 1) * (rows + 1));
        p.order = IndexOrder::Optimised;
        const std::vector<uint32_t> got = generate_triangles(p);
        CHECK(got == expected);
        if (cols > 1 && rows > 1) CHECK(got != raw);  // reordered (a strip's row order is already meshoptimizer's)
        // 16-bit indices: the same order, two bytes each.
        std::vector<uint8_t> bytes(raw.size() * 2);
        grid_cache_order(cols, rows, bytes.data(), 2);
        bool same16 = true;
        for (size_t k = 0; k < raw.size(); ++k)
            same16 = same16 && (uint32_t(bytes[2 * k] | bytes[2 * k + 1] << 8) == (expected[k] & 0xFFFF));
        CHECK(same16);
    }
    // The random order of generate() equals a Fisher-Yates over the triangles of the raw list.
    GenParams r;
    r.columns = 20, r.rows = 10, r.index_size = 4, r.order = IndexOrder::Random, r.seed = 7;
    GenParams rows_order = r;
    rows_order.order = IndexOrder::Raw;
    std::vector<uint32_t> t = generate_triangles(rows_order);
    std::mt19937 rng(7);
    for (size_t i = t.size() / 3; i-- > 1;) {
        const size_t j = size_t(rng() % (i + 1));
        for (size_t k = 0; k < 3; ++k) std::swap(t[3 * i + k], t[3 * j + k]);
    }
    CHECK(generate_triangles(r) == t);
    const GenResult g = generate(r);
    REQUIRE(g.indices.size() == t.size() * 4);
    CHECK(std::memcmp(g.indices.data(), t.data(), g.indices.size()) == 0);  // little-endian host
}

TEST_CASE("generators: the buffers and the scene hash are those of the straightforward code", "[scene]") {
    // The hash of this scene (its text and every buffer's bytes) as vpsim 5ef89bd computed it,
    // generating vertex by vertex (a sine and cosine per vertex) and ordering the indices by
    // comparing the whole cache list each step: every element type, three shapes, all three
    // index orders and both index sizes, a grid wider than generate()'s block of columns (1024)
    // and one taller. A changed byte in any buffer changes the hash.
    const std::string text = R"({"buffers": {
 "ball": {"generator": "sphere", "slices": 37, "stacks": 23, "radius": 1.5, "bones": 3, "indices": "INDEX16", "index_order": "optimised",
  "streams": {"a": [{"attribute": "position", "type": "FLOAT3"}, {"attribute": "normal", "type": "SHORT4", "scale": 32767},
                    {"attribute": "color", "type": "D3DCOLOR"}, {"attribute": "texcoord", "type": "SHORT2", "scale": 4096}],
              "b": [{"attribute": "blendweight", "type": "FLOAT2"}, {"attribute": "blendindices", "type": "UBYTE4", "scale": 1},
                    {"attribute": "color", "type": "UBYTE4", "scale": 255}, {"attribute": "normal", "type": "FLOAT4"}, {"attribute": "texcoord", "type": "FLOAT1"}]}},
 "ring": {"generator": "torus", "rings": 1030, "sides": 3, "radius": 1.0, "tube": 0.3, "bones": 1, "indices": "INDEX32", "index_order": "optimised",
  "streams": {"p": [{"attribute": "position", "type": "FLOAT3"}, {"attribute": "normal", "type": "SHORT4", "scale": 32767}, {"attribute": "color", "type": "D3DCOLOR"}]}},
 "sheet": {"generator": "grid", "columns": 5, "rows": 1030, "size": 3, "indices": "INDEX32", "index_order": "random", "seed": 9,
  "streams": {"p": [{"attribute": "position", "type": "SHORT4", "scale": 1000}, {"attribute": "texcoord", "type": "FLOAT2"}, {"attribute": "blendweight", "type": "FLOAT4"}]}},
 "strip": {"generator": "sphere", "slices": 2500, "stacks": 2, "indices": "INDEX32",
  "streams": {"p": [{"attribute": "position", "type": "FLOAT3"}, {"attribute": "normal", "type": "FLOAT3"}]}}
},
 "commands": []}
)";
    const TempFile f("vpsim_pinned_scene", ".json");
    std::ofstream(f.path()) << text;
    CHECK(load_hashed_scene(f.path()).hash == "fnv1a64:338236c778c4aad8");
}

TEST_CASE("scene hash: a scene loaded without its hash is the same scene, its hash empty", "[scene]") {
    const TempFile f("vpsim_unhashed_scene", ".json");
    std::ofstream(f.path()) << default_scene_json().dump();
    const HashedScene with = load_hashed_scene(f.path()), without = load_hashed_scene(f.path(), false);
    CHECK(with.hash.rfind("fnv1a64:", 0) == 0);
    CHECK(without.hash.empty());
    REQUIRE(without.scene.commands.size() == with.scene.commands.size());
    REQUIRE(without.scene.buffers.size() == with.scene.buffers.size());
    for (const auto& [name, b] : with.scene.buffers) CHECK(without.scene.buffers.at(name).bytes == b.bytes);
}

TEST_CASE("scene hash: FNV-1a 64, 8 bytes per loop iteration, is the byte-by-byte hash", "[scene]") {
    Fnv a;
    a.add(std::string("a"));  // the string and its terminating NUL
    Fnv ref;
    ref.h = (ref.h ^ uint8_t('a')) * Fnv::kPrime;
    ref.h = (ref.h ^ 0) * Fnv::kPrime;
    CHECK(a.h == ref.h);
    Fnv foobar;
    foobar.add("foobar", 6);
    CHECK(foobar.h == 0x85944171f73967e8ull);  // the published FNV-1a 64 test vector
    std::vector<uint8_t> bytes(41);
    for (size_t k = 0; k < bytes.size(); ++k) bytes[k] = uint8_t(37 * k + 11);
    for (size_t n = 0; n <= bytes.size(); ++n) {
        uint64_t h = Fnv().h;
        for (size_t k = 0; k < n; ++k) h = (h ^ bytes[k]) * 0x100000001b3ull;
        Fnv f;
        f.add(bytes.data(), n);
        CHECK(f.h == h);
    }
}

TEST_CASE("primitive types: vertex counts and draw order", "[scene]") {
    CHECK(pipe::vertex_count(PrimitiveType::PointList, 5) == 5);
    CHECK(pipe::vertex_count(PrimitiveType::LineList, 5) == 10);
    CHECK(pipe::vertex_count(PrimitiveType::LineStrip, 5) == 6);
    CHECK(pipe::vertex_count(PrimitiveType::TriangleList, 5) == 15);
    CHECK(pipe::vertex_count(PrimitiveType::TriangleStrip, 5) == 7);
    CHECK(pipe::vertex_count(PrimitiveType::TriangleFan, 5) == 7);
    CHECK(pipe::parse_primitive_type("D3DPT_TRIANGLEFAN") == PrimitiveType::TriangleFan);
    CHECK(!pipe::parse_primitive_type("quads"));

    std::string cmds;
    const char* types[] = {"pointlist", "linelist", "linestrip", "trianglelist", "trianglestrip", "trianglefan"};
    for (const char* t : types)
        cmds += fmt::format(R"(, {{"op": "DrawPrimitive", "type": "{}", "start_vertex": 1, "primitive_count": 2}})", t);
    for (const char* t : types)
        cmds += fmt::format(R"(, {{"op": "DrawIndexedPrimitive", "type": "{}", "start_index": 1, "primitive_count": 2}})", t);
    const Scene sc = parse(R"({"buffers": {"vb": {"layout": ["FLOAT1"], "vertices": [[0], [1], [2], [3], [4], [5], [6], [7], [8]]},
      "ib": {"format": "INDEX32", "indices": [9, 8, 7, 6, 5, 4, 3, 2]}},
      "commands": [{"op": "CreateVertexShader", "name": "s", "declaration": {"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT1), D3DVSD_END() "}, "function": {"asm": "vs.1.1\nmov oPos, v0\n"}},
      {"op": "SetVertexShader", "shader": "s"}, {"op": "SetStreamSource", "stream": 0, "buffer": "vb", "stride": 4},
      {"op": "SetIndices", "buffer": "ib", "base_vertex": 0})" + cmds + "]}");
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8());
    REQUIRE(r.draws.size() == 12);
    const size_t counts[] = {2, 4, 3, 6, 4, 4};
    for (size_t k = 0; k < 6; ++k) {
        INFO(types[k]);
        CHECK(r.draws[k].vertices.size() == counts[k]);
        CHECK(r.draws[k].primitives == 2);
        CHECK(r.draws[6 + k].vertices.size() == counts[k]);
        for (size_t i = 0; i < counts[k]; ++i) {
            CHECK(r.draws[k].indices[i] == 1 + i);
            CHECK(r.draws[k].vertices[i].pos[0] == float(1 + i));
            CHECK(r.draws[6 + k].indices[i] == 8 - i);
            CHECK(r.draws[6 + k].vertices[i].pos[0] == float(8 - i));  // index 9 (position 0) is never read
        }
    }
}

TEST_CASE("a small scene equals exec-style fetch + execute_reference, bit for bit", "[scene]") {
    const Scene sc = parse(kSmall);
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8());
    REQUIRE(r.draws.size() == 2);
    CHECK(r.draws[0].primitives == 3);
    CHECK(r.draws[0].unique_vertices == 6);
    CHECK(r.draws[1].indices == std::vector<uint32_t>{1, 2, 3, 4, 5});

    // What `vpsim exec` does: create, load CONST tokens, SetVertexShaderConstant, fetch + interpret.
    const auto& create = std::get<CreateVertexShader>(sc.commands[0].body);
    const vs::CreatedShader cs = vs::create_vertex_shader(create.declaration, &*create.function, {}, vs::Profile::d3d8());
    REQUIRE(cs.valid);
    vs::Constants k(96, vs::Vec4{});
    for (const auto& c : cs.decl.constants)
        for (size_t i = 0; i < 4; ++i) k[c.reg][i] = bits_float(c.bits[i]);
    k[0] = {1, 2, 3, 4};
    k[1] = {0.25f, 0, 0, 0};
    k[2] = {0.125f, 0.25f, 0.5f, 1};
    const Buffer& vb = sc.buffers.at("vb");
    vs::Streams st{};
    st[0] = {vb.bytes.data(), vb.bytes.size(), 16, true};
    for (const auto& d : r.draws)
        for (size_t i = 0; i < d.indices.size(); ++i) {
            const vs::VertexOutputs want = vs::execute_reference(*cs.program, vs::Profile::d3d8(),
                                                                 vs::fetch_vertex(cs.decl, st, d.indices[i]), k);
            CHECK(vs::same_bits(d.vertices[i], want));
        }
    // The constant c1 was overwritten by SetVertexShaderConstant (declaration CONST first).
    CHECK(r.draws[0].indices[2] == 2);
    CHECK(r.draws[0].vertices[2].fog == 0.25f);  // v0.y * c1.x = 1 * 0.25 (the CONST token had 0.5)
}

TEST_CASE("the default scene: about 10,000 vertices through the whole pipeline", "[scene]") {
    const Scene sc = default_scene();
    const FunctionalResult r = run_functional(sc, vs::Profile::d3d8());
    REQUIRE(r.draws.size() == 1);
    const DrawResult& d = r.draws[0];
    CHECK(d.unique_vertices == 10000);
    CHECK(d.primitives == 19602);
    CHECK(d.vertices.size() == 3 * 19602);
    CHECK((d.outputs_written & vs::kOutPos));
    CHECK((d.outputs_written & vs::kOutD0));
    CHECK((d.outputs_written & vs::kOutFog));
    // Two streams, FLOAT3 + SHORT4 and D3DCOLOR + FLOAT2, CONST tokens in the declaration.
    const auto& create = std::get<CreateVertexShader>(sc.commands[0].body);
    const decl::Declaration dd = decl::decode(create.declaration);
    REQUIRE(dd.streams.size() == 2);
    CHECK(dd.streams[0].elements[0].type == decl::D3DVSDT_FLOAT3);
    CHECK(dd.streams[0].elements[1].type == decl::D3DVSDT_SHORT4);
    CHECK(dd.streams[1].elements[0].type == decl::D3DVSDT_D3DCOLOR);
    CHECK(dd.streams[1].elements[1].type == decl::D3DVSDT_FLOAT2);
    CHECK(dd.constants.size() == 7);  // c4..c6, c8, c10..c12
    CHECK((d.outputs_written & vs::kOutD1));
    // Lit, with a highlight, and fogged: some vertex is brighter than the ambient, some has a
    // specular highlight and most none, fog varies.
    float max_red = 0, min_fog = 1, max_fog = 0, max_spec = 0;
    size_t unlit = 0;
    for (const auto& v : d.vertices) {
        max_red = std::max(max_red, v.d0[0]);
        min_fog = std::min(min_fog, v.fog);
        max_fog = std::max(max_fog, v.fog);
        max_spec = std::max(max_spec, v.d1[0]);
        unlit += v.d1[0] == 0.0f;
    }
    CHECK(max_red > 0.5f);
    CHECK(max_spec > 0.3f);
    CHECK(unlit > d.vertices.size() / 4);
    CHECK(min_fog < max_fog);
}

TEST_CASE("every example scene runs, each reference's vertex equal to its index shaded on its own", "[scene]") {
    // Every scene file under examples/scenes/, subdirectories included: a new example is covered
    // without touching this test.
    std::vector<std::string> files;
    for (const auto& e : std::filesystem::recursive_directory_iterator(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes"))
        if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    INFO(files.size() << " example scenes");
    REQUIRE(files.size() >= 10);  // 5 in examples/scenes/, 5 in patches/: discovery cannot pass vacuously
    for (const auto& file : files) {
        INFO(file);
        const Scene sc = load_scene(file);
        // What each draw shades with, copied when the executor shades it (constants change
        // between draws; the shaders live only as long as the executor).
        // The streams' bytes are copied too: an UpdateBuffer changes them after the draw.
        struct Snapshot {
            vs::CreatedShader shader;
            vs::Profile profile;
            vs::Streams streams;
            vs::Constants constants;
            std::array<std::vector<uint8_t>, 16> bytes;
        };
        std::vector<Snapshot> seen;
        const ShadeFn reference = reference_shade();
        const ShadeFn recording = [&](const ShadeState& st, const uint32_t* idx, size_t n, vs::VertexOutputs* out) {
            seen.push_back({*st.shader, *st.profile, *st.streams, *st.constants, {}});
            Snapshot& s = seen.back();
            for (size_t b = 0; b < 16; ++b)
                if (s.streams[b].data) {
                    s.bytes[b].assign(s.streams[b].data, s.streams[b].data + s.streams[b].size);
                    s.streams[b].data = s.bytes[b].data();
                }
            reference(st, idx, n, out);
        };
        FunctionalResult r;
        REQUIRE_NOTHROW(r = run_functional(sc, vs::Profile::d3d8(), recording));
        size_t draw_commands = 0;
        for (const auto& c : sc.commands)
            draw_commands += std::holds_alternative<DrawPrimitive>(c.body) ||
                             std::holds_alternative<DrawIndexedPrimitive>(c.body) ||
                             std::holds_alternative<DrawRectPatch>(c.body) || std::holds_alternative<DrawTriPatch>(c.body);
        CHECK(draw_commands > 0);
        REQUIRE(r.draws.size() == draw_commands);
        REQUIRE(seen.size() == r.draws.size());
        for (size_t k = 0; k < r.draws.size(); ++k) {
            const DrawResult& d = r.draws[k];
            INFO("draw " << k << " (" << d.pointer << ")");
            CHECK(d.unique_vertices == std::set<uint32_t>(d.indices.begin(), d.indices.end()).size());
            if (!d.generated) CHECK(d.indices.size() == pipe::vertex_count(d.type, d.primitives));
            // The executor shades each distinct index once and copies it to every reference:
            // reference i must be exactly its own index shaded alone, with the draw's state.
            REQUIRE(d.vertices.size() == d.indices.size());
            size_t bad = 0, first_bad = d.indices.size();
            for (size_t i = 0; i < d.indices.size(); ++i) {
                const vs::VertexOutputs want = vs::execute_reference(
                    *seen[k].shader.program, seen[k].profile,
                    d.generated ? d.generated->vertices[d.indices[i]]
                                : vs::fetch_vertex(seen[k].shader.decl, seen[k].streams, d.indices[i]),
                    seen[k].constants);
                if (!vs::same_bits(d.vertices[i], want) && bad++ == 0) first_bad = i;
            }
            INFO("first differing reference " << first_bad);
            CHECK(bad == 0);
        }
    }
    // default.json is the built-in default scene.
    const Scene file = load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/default.json");
    const FunctionalResult a = run_functional(file, vs::Profile::d3d8());
    const FunctionalResult b = run_functional(default_scene(), vs::Profile::d3d8());
    REQUIRE(a.draws[0].vertices.size() == b.draws[0].vertices.size());
    bool same = true;
    for (size_t i = 0; i < a.draws[0].vertices.size(); ++i) same = same && vs::same_bits(a.draws[0].vertices[i], b.draws[0].vertices[i]);
    CHECK(same);
}

namespace {

// Every index a draw's shading is asked for, per draw, and the outputs (Keep::Counts drops them;
// the log keeps a copy of each block's to compare).
struct ShadeLog {
    std::vector<std::vector<uint32_t>> indices;
    std::vector<std::vector<vs::VertexOutputs>> outputs;
};

ShadeFn logging(ShadeLog& log, size_t& draws_seen, const ShadeFn& inner) {
    return [&log, &draws_seen, inner](const ShadeState& st, const uint32_t* idx, size_t n, vs::VertexOutputs* out) {
        inner(st, idx, n, out);
        log.indices.resize(draws_seen + 1);
        log.outputs.resize(draws_seen + 1);
        log.indices[draws_seen].insert(log.indices[draws_seen].end(), idx, idx + n);
        log.outputs[draws_seen].insert(log.outputs[draws_seen].end(), out, out + n);
    };
}

}  // namespace

TEST_CASE("Keep::Counts shades the same distinct vertices, in ascending order, as Keep::Vertices", "[scene]") {
    // Three ways to find a draw's distinct vertices without its references: a non-indexed draw
    // (consecutive), an indexed draw over a narrow range (a bitmap) and one whose indices spread
    // far (a sorted copy); the largest has more than one kShadeBlock of distinct vertices.
    std::string idx;
    for (uint32_t i = 0; i < 3 * 3000; ++i) idx += fmt::format("{}{}", i ? "," : "", (i * 7919u) % 9001u);
    const std::string text = fmt::format(R"J({{
      "buffers": {{"g": {{"generator": "grid", "columns": 99, "rows": 99, "indices": "INDEX32",
                      "streams": {{"p": [{{"attribute": "position", "type": "FLOAT3"}}]}}}},
                  "near": {{"format": "INDEX32", "indices": [{}]}},
                  "far": {{"format": "INDEX32", "indices": [9999, 0, 5000, 9999, 17, 0]}}}},
      "commands": [
        {{"op": "CreateVertexShader", "name": "s",
          "declaration": {{"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"}},
          "function": {{"asm": "vs.1.1\nmul oPos, v0, c0\nmov oD0, v0\n"}}}},
        {{"op": "SetVertexShader", "shader": "s"}},
        {{"op": "SetVertexShaderConstant", "register": 0, "values": [[2, 3, 4, 1]]}},
        {{"op": "SetStreamSource", "stream": 0, "buffer": "g.p", "stride": 12}},
        {{"op": "DrawPrimitive", "type": "trianglestrip", "start_vertex": 7, "primitive_count": 5000}},
        {{"op": "SetIndices", "buffer": "near"}},
        {{"op": "DrawIndexedPrimitive", "type": "trianglelist", "min_index": 0, "num_vertices": 9001, "start_index": 0}},
        {{"op": "SetIndices", "buffer": "far"}},
        {{"op": "DrawIndexedPrimitive", "type": "trianglelist", "min_index": 0, "num_vertices": 10000, "start_index": 0}}
      ]}})J",
                                         idx);
    const Scene sc = parse(text);
    ShadeLog kept2, counted;
    size_t kept_draw = 0, counted_draw = 0;
    std::vector<DrawResult> vertices_draws, counts_draws;
    run_functional_each(sc, vs::Profile::d3d8(), logging(kept2, kept_draw, reference_shade()), {}, {}, Keep::Vertices,
                        [&](DrawResult&& d) {
                            vertices_draws.push_back(std::move(d));
                            ++kept_draw;
                        });
    run_functional_each(sc, vs::Profile::d3d8(), logging(counted, counted_draw, reference_shade()), {}, {}, Keep::Counts,
                        [&](DrawResult&& d) {
                            counts_draws.push_back(std::move(d));
                            ++counted_draw;
                        });
    REQUIRE(vertices_draws.size() == 3);
    REQUIRE(counts_draws.size() == 3);
    REQUIRE(counted.indices.size() == 3);
    for (size_t k = 0; k < 3; ++k) {
        INFO("draw " << k);
        const DrawResult &v = vertices_draws[k], &c = counts_draws[k];
        CHECK(c.indices.empty());
        CHECK(c.vertices.empty());
        CHECK(c.references == v.references);
        CHECK(c.references == v.indices.size());
        CHECK(c.unique_vertices == v.unique_vertices);
        CHECK(c.primitives == v.primitives);
        CHECK(counted.indices[k] == kept2.indices[k]);  // the same distinct indices, ascending
        REQUIRE(counted.outputs[k].size() == kept2.outputs[k].size());
        size_t bad = 0;
        for (size_t i = 0; i < counted.outputs[k].size(); ++i) bad += !vs::same_bits(counted.outputs[k][i], kept2.outputs[k][i]);
        CHECK(bad == 0);
    }
    CHECK(counts_draws[1].unique_vertices > kShadeBlock);  // more than one block
    CHECK(counts_draws[2].unique_vertices == 4);
}

TEST_CASE("Keep::Counts reports the same first unfetchable vertex as Keep::Vertices", "[scene]") {
    // Vertices 0..2 exist; the indices reach 5000 and 70000 (a bitmap) or 3000000 (a sorted copy):
    // both report the smallest unfetchable index, 5000 / 3000000.
    for (const char* far : {"70000", "3000000"}) {
        INFO(far);
        std::string idx = "0,1,2";
        for (int i = 0; i < 30; ++i) idx += ",2,1,0";
        const std::string text = fmt::format(R"J({{
          "buffers": {{"tri": {{"layout": ["FLOAT3"], "vertices": [[0, 0, 0], [1, 0, 0], [0, 1, 0]]}},
                      "ib": {{"format": "INDEX32", "indices": [{},{},{},{}]}}}},
          "commands": [
            {{"op": "CreateVertexShader", "name": "s",
              "declaration": {{"text": "D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_END()"}},
              "function": {{"asm": "vs.1.1\nmov oPos, v0\n"}}}},
            {{"op": "SetVertexShader", "shader": "s"}},
            {{"op": "SetStreamSource", "stream": 0, "buffer": "tri", "stride": 12}},
            {{"op": "SetIndices", "buffer": "ib"}},
            {{"op": "DrawIndexedPrimitive", "type": "trianglelist", "min_index": 0, "num_vertices": 3000001,
              "start_index": 0}}]}})J",
                                             idx, far, std::string(far) == "70000" ? "5000" : "3000000", "1");
        const Scene sc = parse(text);
        std::string errs[2];
        for (int keep = 0; keep < 2; ++keep) {
            try {
                run_functional_each(sc, vs::Profile::d3d8(), reference_shade(), {}, {},
                                    keep ? Keep::Counts : Keep::Vertices, [](DrawResult&&) {});
            } catch (const SceneError& e) {
                errs[keep] = e.what();
            }
        }
        CHECK_THAT(errs[0], Contains(std::string("vertex ") + (std::string(far) == "70000" ? "5000" : "3000000") + ":"));
        CHECK(errs[1] == errs[0]);
    }
}

// ---- Base64 buffer bytes (docs/scenes.md, "Buffers") ----

namespace {
// The error of parsing a scene whose one buffer "b" is `buffer` (no commands).
std::string buffer_error(const std::string& buffer) {
    try {
        parse(R"({"buffers": {"b": )" + buffer + R"(}, "commands": []})");
    } catch (const SceneError& e) {
        return e.what();
    }
    return "(no error)";
}
}  // namespace

TEST_CASE("base64 decodes RFC 4648's test vectors and what base64_encode writes, for every length", "[scene][base64]") {
    const std::pair<const char*, const char*> rfc[] = {{"", ""},         {"f", "Zg=="},         {"fo", "Zm8="},
                                                       {"foo", "Zm9v"},  {"foob", "Zm9vYg=="}, {"fooba", "Zm9vYmE="},
                                                       {"foobar", "Zm9vYmFy"}};
    for (const auto& [plain, text] : rfc) {
        const std::string p = plain;
        CHECK(base64_encode(reinterpret_cast<const uint8_t*>(p.data()), p.size()) == text);
        std::vector<uint8_t> out;
        Base64Error e;
        REQUIRE(base64_decode(text, std::strlen(text), out, e));
        CHECK(std::string(out.begin(), out.end()) == p);
    }
    std::mt19937 rng(7);
    for (size_t n = 0; n <= 64; ++n) {
        std::vector<uint8_t> bytes(n);
        for (auto& b : bytes) b = uint8_t(rng());
        const std::string text = base64_encode(bytes.data(), n);
        CHECK(text.size() == (n + 2) / 3 * 4);
        std::vector<uint8_t> out;
        Base64Error e;
        REQUIRE(base64_decode(text.data(), text.size(), out, e));
        CHECK(out == bytes);
    }
}

TEST_CASE("a buffer's base64 string gives the bytes its bytes array gives, as vertices and as indices", "[scene][base64]") {
    // 0x01 0xFF 0x80 0x00 0x10 0x20 0x7F: every padding case across the two buffers
    const Scene s = parse(R"({"buffers": {
      "a": {"bytes": [1, 255, 128, 0, 16, 32, 127]}, "b": {"base64": "Af+AABAgfw==", "size": 7},
      "ia": {"format": "INDEX16", "bytes": [2, 0, 1, 1]}, "ib": {"format": "INDEX16", "base64": "AgABAQ=="},
      "ic": {"format": "INDEX32", "base64": "AQIDBA=="}}, "commands": []})");
    CHECK(s.buffers.at("b").bytes == s.buffers.at("a").bytes);
    CHECK(s.buffers.at("ib").bytes == s.buffers.at("ia").bytes);
    REQUIRE(s.buffers.at("ib").index_count() == 2);
    CHECK(s.buffers.at("ib").index(1) == 0x0101);
    CHECK(s.buffers.at("ic").index(0) == 0x04030201u);
}

TEST_CASE("a base64 buffer with a character outside the alphabet is refused at that character", "[scene][base64]") {
    CHECK(buffer_error(R"({"base64": "AAAAAA-A"})") ==
          "t.json: /buffers/b/base64: character 6 of 8: '-' is not in the base64 alphabet (A-Z, a-z, 0-9, '+', '/'; "
          "'=' padding at the end)");
    CHECK(buffer_error(R"({"base64": "AAAA\nAAA"})") ==
          "t.json: /buffers/b/base64: character 4 of 8: byte 0x0A is not in the base64 alphabet (A-Z, a-z, 0-9, '+', "
          "'/'; '=' padding at the end)");
}

TEST_CASE("a base64 buffer whose length is not a multiple of 4 (unpadded) is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"base64": "Af+AABAgfw"})") ==
          "t.json: /buffers/b/base64: character 10 of 10: 10 characters is not a multiple of 4: base64 here is padded "
          "with '=' to whole 4-character groups (RFC 4648)");
}

TEST_CASE("a base64 buffer with '=' anywhere but its last one or two characters is refused", "[scene][base64]") {
    const std::string rule = "'=' where a character of data must be: '=' is padding, only the last one or two "
                             "characters of the string";
    CHECK(buffer_error(R"({"base64": "Zg==Zg=="})") == "t.json: /buffers/b/base64: character 2 of 8: " + rule);
    CHECK(buffer_error(R"({"base64": "Z==="})") == "t.json: /buffers/b/base64: character 1 of 4: " + rule);
    CHECK(buffer_error(R"({"base64": "Zm=v"})") == "t.json: /buffers/b/base64: character 2 of 4: " + rule);
}

TEST_CASE("a base64 buffer whose last character sets bits past its last byte is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"base64": "Zh=="})") ==
          "t.json: /buffers/b/base64: character 1 of 4: 'h' before the padding sets bits past the last byte: they must "
          "be zero (the one base64 encoding of these bytes, RFC 4648 section 3.5)");
    CHECK_THAT(buffer_error(R"({"base64": "Zm9="})"),
               StartsWith("t.json: /buffers/b/base64: character 2 of 4: '9' before the padding sets bits"));
}

TEST_CASE("a base64 index buffer that decodes to part of an index is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"format": "INDEX32", "base64": "AQIDBAU="})") ==
          "t.json: /buffers/b/base64: 8 characters decode to 5 bytes: not a whole number of 4-byte indices");
}

TEST_CASE("a buffer whose \"size\" is not what its base64 or bytes holds is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"base64": "AQIDBA==", "size": 5})") ==
          "t.json: /buffers/b/base64: 8 characters decode to 4 bytes, and \"size\" is 5");
    CHECK(buffer_error(R"({"bytes": [1, 2], "size": 3})") == "t.json: /buffers/b/bytes: 2 bytes, and \"size\" is 3");
}

TEST_CASE("a buffer's \"size\" that is not a byte count is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"base64": "AQIDBA==", "size": -1})") ==
          "t.json: /buffers/b/size: expected a size in bytes, found -1");
}

TEST_CASE("an inline vertices buffer takes no \"size\"", "[scene][base64]") {
    CHECK(buffer_error(R"({"layout": ["FLOAT1"], "vertices": [[1]], "size": 4})") ==
          "t.json: /buffers/b/size: unknown key \"size\": expected one of vertices, layout");
}

TEST_CASE("a buffer with both \"bytes\" and \"base64\" is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"bytes": [1], "base64": "AQ=="})") ==
          "t.json: /buffers/b: expected exactly one of \"file\", \"vertices\", \"indices\", \"bytes\", \"base64\" "
          "or \"generator\"");
}

TEST_CASE("a buffer whose base64 is not a string is refused", "[scene][base64]") {
    CHECK(buffer_error(R"({"base64": [1]})") ==
          "t.json: /buffers/b/base64: expected a base64 string (RFC 4648, '=' padded), found an array");
}

namespace {
// load_scene of `text` written to a scratch file named NAME.json, or its error with the file's
// name replaced by "f.json".
struct Loaded {
    Scene scene;
    std::string error;
};
Loaded load_text(const std::string& text) {
    const TempFile f("vpsim_base64_scene", ".json");
    std::ofstream(f.path()) << text;
    Loaded r;
    try {
        r.scene = load_scene(f.path());
    } catch (const SceneError& e) {
        r.error = e.what();
        if (r.error.rfind(f.path(), 0) == 0) r.error = "f.json" + r.error.substr(f.path().size());
    }
    return r;
}

// A scene whose "base64" strings lift_base64 takes out (buffers "v", "i" and an UpdateBuffer's) and
// whose look-alikes it leaves: a string "base64" as an array element, a key spelled with an escape,
// a quote escaped inside a string.
const char* const kLiftable = R"({"buffers": {
  "v": {"base64" : "Af+AABAgfw==", "size": 7, "_note": ["base64", "not a key"]},
  "i": {"format": "INDEX16", "base64":"AgABAQ=="},
  "e": {"base\u0036\u0034": "AQID", "_say": "a \"base64\": \"AQID\" in a string"}},
 "commands": [{"op": "UpdateBuffer", "buffer": "v", "offset": 1, "base64": "AQID"}]})";
}  // namespace

TEST_CASE("a scene file's base64 strings, taken out of the text before parsing, give the bytes parsing them gives",
          "[scene][base64]") {
    LiftedStrings lifted;
    const std::string source = kLiftable;  // the spans point into it
    const std::string lean = lift_base64(source, lifted);
    REQUIRE(lifted.spans.size() == 3);  // v, i, the UpdateBuffer's; not "e" (an escaped key)
    CHECK(std::string(lifted.spans[0].first, lifted.spans[0].second) == "Af+AABAgfw==");
    CHECK(lean.find("Af+AABAgfw==") == std::string::npos);
    CHECK(lean.find(R"("a \"base64\": \"AQID\" in a string")") != std::string::npos);
    const Loaded file = load_text(kLiftable);
    REQUIRE(file.error.empty());
    const Scene text = parse(kLiftable);
    for (const char* name : {"v", "i", "e"}) {
        INFO(name);
        CHECK(file.scene.buffers.at(name).bytes == text.buffers.at(name).bytes);
    }
    CHECK(std::get<UpdateBuffer>(file.scene.commands.at(0).body).bytes ==
          std::get<UpdateBuffer>(text.commands.at(0).body).bytes);
}

TEST_CASE("a scene file that spells U+0001, which a taken-out string's placeholder holds, has nothing taken out",
          "[scene][base64]") {
    LiftedStrings lifted;
    const std::string source = R"({"buffers": {"b": {"base64": "AQ=="}}, "commands": [], "_x": "\u0001"})";
    CHECK(lift_base64(source, lifted).empty());
    CHECK(lifted.spans.empty());
    CHECK(load_text(R"({"buffers": {"b": {"base64": "\u00010"}}, "commands": []})").error ==
          "f.json: /buffers/b/base64: character 0 of 2: byte 0x01 is not in the base64 alphabet (A-Z, a-z, 0-9, '+', "
          "'/'; '=' padding at the end)");
}

TEST_CASE("a malformed base64 string in a scene file is refused at its character, as parsed in place", "[scene][base64]") {
    CHECK(load_text(R"({"buffers": {"b": {"base64": "AAAAAA-A"}}, "commands": []})").error ==
          "f.json: /buffers/b/base64: character 6 of 8: '-' is not in the base64 alphabet (A-Z, a-z, 0-9, '+', '/'; "
          "'=' padding at the end)");
}

TEST_CASE("a JSON syntax error in a scene file with base64 strings is located in the file's own text", "[scene][base64]") {
    const std::string text = "{\"buffers\": {\"b\": {\"base64\": \"AQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHyA=\"}},\n"
                             " \"commands\": [}\n";
    const std::string e = load_text(text).error;
    CHECK_THAT(e, StartsWith("f.json: line 2, column 15: not valid JSON"));
}

TEST_CASE("UpdateBuffer writes its base64 bytes as it writes a bytes array", "[scene][base64]") {
    const std::string head = R"({"buffers": {"vb": {"bytes": [0, 0, 0, 0, 0, 0, 0, 0]}}, "commands": [
      {"op": "UpdateBuffer", "buffer": "vb", "offset": 2, )";
    const Scene a = parse(head + R"("bytes": [1, 255, 128]}]})");
    const Scene b = parse(head + R"("base64": "Af+A"}]})");
    const auto& ua = std::get<UpdateBuffer>(a.commands.at(0).body);
    const auto& ub = std::get<UpdateBuffer>(b.commands.at(0).body);
    CHECK(ub.bytes == ua.bytes);
    CHECK(ub.offset == 2);
}

namespace {
// The error of a scene whose one UpdateBuffer of a 4-byte buffer "vb" at offset 0 has `rest`.
std::string update_error(const std::string& rest) {
    return error_of(R"({"buffers": {"vb": {"bytes": [0, 0, 0, 0]}}, "commands": [
      {"op": "UpdateBuffer", "buffer": "vb", "offset": 0, )" + rest + "}]}");
}
}  // namespace

TEST_CASE("UpdateBuffer with a malformed base64 string is refused at its character", "[scene][base64]") {
    CHECK(update_error(R"("base64": "Af+")") ==
          "t.json: /commands/0/base64: character 3 of 3: 3 characters is not a multiple of 4: base64 here is padded "
          "with '=' to whole 4-character groups (RFC 4648)");
}

TEST_CASE("UpdateBuffer with an empty base64 string is refused", "[scene][base64]") {
    CHECK(update_error(R"("base64": "")") == "t.json: /commands/0/base64: expected a non-empty base64 string, found \"\"");
}

TEST_CASE("UpdateBuffer with both bytes and base64 is refused", "[scene][base64]") {
    CHECK(update_error(R"("base64": "AQ==", "bytes": [1])") ==
          "t.json: /commands/0: expected exactly one of \"bytes\" and \"base64\"");
}

TEST_CASE("UpdateBuffer whose base64 bytes go past the buffer's end is refused at them", "[scene][base64]") {
    CHECK(update_error(R"("base64": "AQIDBAU=")") ==
          "t.json: /commands/0/base64: bytes 0..4 (5 from offset 0) go past the end of buffer \"vb\", which holds 4 bytes");
}

// ---- UpdateBuffer (docs/scenes.md, "Commands") ----

TEST_CASE("UpdateBuffer past the end of its buffer is refused at its bytes, naming the range", "[scene]") {
    CHECK(error_of(R"({"buffers": {"vb": {"bytes": [0, 0, 0, 0, 0, 0, 0, 0]}},
      "commands": [{"op": "UpdateBuffer", "buffer": "vb", "offset": 6, "bytes": [1, 2, 3]}]})") ==
          "t.json: /commands/0/bytes: bytes 6..8 (3 from offset 6) go past the end of buffer \"vb\", which holds 8 bytes");
    CHECK_THAT(error_of(R"({"buffers": {}, "commands": [{"op": "UpdateBuffer", "buffer": "vb", "offset": 0, "bytes": [1]}]})"),
               StartsWith("t.json: /commands/0/buffer: expected the name of a buffer, found \"vb\""));
    CHECK_THAT(error_of(R"({"buffers": {"vb": {"bytes": [0]}}, "commands": [{"op": "UpdateBuffer", "buffer": "vb", "offset": 0, "bytes": []}]})"),
               StartsWith("t.json: /commands/0/bytes: expected a non-empty array of bytes 0..255"));
}

TEST_CASE("UpdateBuffer changes what later draws read through the stream and indices already bound", "[scene]") {
    const Scene s = load_scene(std::string(VPSIM_SOURCE_DIR) + "/examples/scenes/update_buffer.json");
    const FunctionalResult r = run_functional(s, vs::Profile::d3d8());
    REQUIRE(r.draws.size() == 3);
    // Draw 0 read the buffers as the file gives them: indices 0, 1, 2, ...; vertex 0 red, vertex 1 at x -0.5.
    CHECK(r.draws[0].indices[0] == 0);
    CHECK(r.draws[0].vertices[0].d0[0] == 1.0f);  // oD0.r
    CHECK(r.draws[0].vertices[1].pos[0] == -0.5f);
    // Draw 1 (the same indexed draw): the first index is 3 now, vertex 1 (reference 1) at x -0.75.
    CHECK(r.draws[1].indices[0] == 3);
    CHECK(r.draws[1].vertices[1].pos[0] == -0.75f);
    // Draw 2 (a strip from vertex 0): vertex 0 blue now.
    CHECK(r.draws[2].vertices[0].d0[0] == 0.0f);
    CHECK(r.draws[2].vertices[0].d0[2] == 1.0f);
    // The scene itself keeps the file's bytes: a second run reads them again.
    CHECK(run_functional(s, vs::Profile::d3d8()).draws[0].vertices[1].pos[0] == -0.5f);
}

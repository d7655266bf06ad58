// vpsim capture's pure C++ side without Wine (docs/capture.md): captures built in memory with
// CaptureWriter, read back, damaged, summarised and converted to scenes that the golden model runs.
#include "model/capture/capture_calls.h"
#include "model/capture/capture_convert.h"
#include "model/capture/capture_info.h"
#include "model/capture/capture_reader.h"
#include "model/capture/capture_writer.h"
#include "model/common/base64.h"
#include "model/scene/functional.h"
#include "model/vs/vs_validate.h"
#include "model/scene/scene.h"

#include <catch2/catch.hpp>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

using namespace vpsim;
using namespace vpsim::capture;

namespace {

const uint32_t kFvfXyzDiffuse = 0x042;  // D3DFVF_XYZ | D3DFVF_DIFFUSE, 16 bytes a vertex

std::string vertices(const std::vector<float>& xyz) {  // XYZ|DIFFUSE vertices, white
    std::string s;
    for (size_t i = 0; i + 2 < xyz.size(); i += 3) {
        const float v[3] = {xyz[i], xyz[i + 1], xyz[i + 2]};
        const uint32_t c = 0xFFFFFFFFu;
        s.append(reinterpret_cast<const char*>(v), 12);
        s.append(reinterpret_cast<const char*>(&c), 4);
    }
    return s;
}

std::string indices16(const std::vector<uint16_t>& v) {
    return std::string(reinterpret_cast<const char*>(v.data()), 2 * v.size());
}

// Frame 0: a device, a vertex buffer of 4 vertices (64 bytes) filled, a 6-index buffer, a
// DrawIndexedPrimitive of 2 triangles. Frame 1: vertices 0..1 rewritten (DISCARD), DrawPrimitive
// of a strip; a DrawPrimitiveUP fan. Frame 2: DrawIndexedPrimitiveUP.
CaptureWriter sample(uint32_t version = VPSIM_CAPTURE_VERSION) {
    CaptureWriter w(0, 0, 0xFFFFFFFFu, version);
    w.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 160, 120, 1});
    w.call(VPSIM_OP_CREATE_VERTEX_BUFFER, {1, 64, 8, kFvfXyzDiffuse, 1});
    w.call(VPSIM_OP_CREATE_INDEX_BUFFER, {2, 12, 8, kFmtIndex16, 1});
    w.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 0, 64, 0}, vertices({0, 0, 0.5f, 1, 0, 0.5f, 0, 1, 0.5f, 1, 1, 0.5f}));
    w.call(VPSIM_OP_INDEX_BUFFER_DATA, {2, 0, 12, 0}, indices16({0, 1, 2, 2, 1, 3}));
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 0});  // LIGHTING FALSE
    w.call(VPSIM_OP_SET_RENDER_STATE, {7, 1});    // ZENABLE: not the vertex pipeline's
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});
    w.call(VPSIM_OP_SET_INDICES, {2, 0});
    w.call(VPSIM_OP_DRAW_INDEXED_PRIMITIVE, {4, 0, 4, 0, 2});
    w.present();
    w.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 0, 32, 0x2000}, vertices({0, 0, 0.25f, 1, 0, 0.25f}));
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {5, 0, 2});
    w.call(VPSIM_OP_DRAW_PRIMITIVE_UP, {6, 1, 16, 48}, vertices({0, 0, 0, 1, 0, 0, 0, 1, 0}));
    w.present();
    w.call(VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP, {4, 0, 3, 1, kFmtIndex16, 16, 6, 48},
           indices16({0, 1, 2}) + vertices({0, 0, 0, 1, 0, 0, 0, 1, 0}));
    w.present();
    return w;
}

uint32_t word(const std::string& b, size_t off) {
    uint32_t v;
    std::memcpy(&v, b.data() + off, 4);
    return v;
}

scene::Scene to_scene(const ConvertResult& r) { return scene::parse_scene(r.scene, ".", "converted.json"); }

// The bytes of a converted buffer or UpdateBuffer: its "base64" string decoded, or its "bytes" array.
std::vector<uint8_t> bytes_of(const nlohmann::json& j) {
    std::vector<uint8_t> v;
    if (j.contains("bytes")) return j["bytes"].get<std::vector<uint8_t>>();
    const std::string& t = j["base64"].get_ref<const std::string&>();
    Base64Error e;
    REQUIRE(base64_decode(t.data(), t.size(), v, e));
    return v;
}

}  // namespace

TEST_CASE("a capture written in memory reads back frame by frame, call by call", "[capture]") {
    const Capture c = parse_capture(sample().bytes(), "s.vpcap");
    REQUIRE(c.error.empty());
    REQUIRE(c.frames.size() == 3);
    CHECK(c.frames[0].calls.size() == 12);
    CHECK(c.frames[0].calls[0].op == VPSIM_OP_CREATE_DEVICE);
    CHECK(c.frames[1].calls.size() == 4);
    CHECK(c.frames[1].calls.back().op == VPSIM_OP_PRESENT);
    CHECK(c.frames[2].index == 2);
}

TEST_CASE("a truncated capture keeps its complete frames and locates the cut", "[capture][damage]") {
    const std::string b = sample().bytes();
    const Capture whole = parse_capture(b, "s.vpcap");
    const uint64_t cut = whole.frames[2].offset + 30;  // inside frame 2's payload
    const Capture c = parse_capture(b.substr(0, cut), "s.vpcap");
    CHECK(c.frames.size() == 2);
    CHECK(c.error.find("s.vpcap: frame 2, byte offset " + std::to_string(whole.frames[2].offset)) == 0);
    CHECK(c.error.find("truncated") != std::string::npos);
}

TEST_CASE("a changed byte fails its frame's checksum, the frames before it are kept", "[capture][damage]") {
    std::string b = sample().bytes();
    const Capture whole = parse_capture(b, "s.vpcap");
    b[whole.frames[1].calls[0].args_offset + 20] ^= 0x40;
    const Capture c = parse_capture(b, "s.vpcap");
    CHECK(c.frames.size() == 1);
    CHECK(c.error.find("frame 1, byte offset " + std::to_string(whole.frames[1].offset) + ": checksum") != std::string::npos);
}

TEST_CASE("a call that breaks its op's layout is located by frame, call and byte offset", "[capture][damage]") {
    CaptureWriter w;
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 0}).present();
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 0}).call(VPSIM_OP_SET_LIGHT, {0, 3}).present();  // 8 of SetLight's 108 bytes
    const Capture c = parse_capture(w.bytes(), "l.vpcap");
    CHECK(c.frames.size() == 1);
    const uint64_t call1 = 32 + 20 + (12 + 8) + 12 + 20 + (12 + 8);  // 12-byte call headers
    CHECK(c.error == "l.vpcap: frame 1, call 1, byte offset " + std::to_string(call1) +
                         ": SetLight takes at least 108 argument bytes, found 8");
}

TEST_CASE("an unknown op is refused with its number", "[capture][damage]") {
    CaptureWriter w;
    w.call(99, {}).present();
    const Capture c = parse_capture(w.bytes(), "u.vpcap");
    CHECK(c.frames.empty());
    CHECK(c.error.find("call 0, byte offset 52: unknown op 99") != std::string::npos);
}

TEST_CASE("a file that is not a capture, or of another version, is refused at its header", "[capture][damage]") {
    CHECK(parse_capture("hello", "h").error.find("h: byte offset 0: not a vpsim capture") == 0);
    std::string b = sample().bytes();
    b[8] = 4;
    CHECK(parse_capture(b, "v").error.find("v: byte offset 8: capture version 4 with a 32-byte header; this vpsim reads versions 1..3") == 0);
}

TEST_CASE("capture info counts draws, vertices, the fixed-function and user-pointer mix and the traffic per frame",
          "[capture][info]") {
    const auto f = capture_info(parse_capture(sample().bytes(), "s.vpcap"));
    REQUIRE(f.size() == 3);
    CHECK(f[0].draws == 1);
    CHECK(f[0].vertices == 6);
    CHECK(f[0].buffer_bytes == 64 + 12);
    CHECK(f[0].state_calls == 2);
    CHECK(f[1].draws == 2);
    CHECK(f[1].vertices == 4 + 3);
    CHECK(f[1].user_pointer_draws == 1);
    CHECK(f[1].user_pointer_bytes == 48);
    CHECK(f[1].fixed_function_draws == 2);
    CHECK(f[2].vertices == 3);
    CHECK(f[2].user_pointer_bytes == 6 + 48);
}

TEST_CASE("capture info tells shader draws from fixed-function ones and counts constant registers", "[capture][info]") {
    CaptureWriter w;
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {0xF0000001u, 0, 0, 1}, std::string("\xFF\xFF\x00\x00", 4));
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {0xF0000001u});
    w.call_floats(VPSIM_OP_SET_VERTEX_SHADER_CONSTANT, {4, 2}, std::vector<float>(8, 1.0f));
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.present();
    const auto f = capture_info(parse_capture(w.bytes(), "v.vpcap"));
    CHECK(f[0].shader_draws == 1);
    CHECK(f[0].fixed_function_draws == 1);
    CHECK(f[0].constant_vectors == 2);
}

TEST_CASE("a converted capture is a scene the golden model runs, draw for draw", "[capture][convert]") {
    const ConvertResult r = convert_capture(parse_capture(sample().bytes(), "s.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.frames == 3);
    CHECK(r.draws == 4);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 4);
    CHECK(f.draws[0].references == 6);
    CHECK(f.draws[1].references == 4);
    CHECK(f.draws[2].references == 3);
    CHECK(f.draws[3].references == 3);
}

namespace {
// The UpdateBuffer commands of a converted scene, in order.
std::vector<nlohmann::json> updates_of(const ConvertResult& r) {
    std::vector<nlohmann::json> u;
    for (const auto& c : r.scene["commands"])
        if (c["op"] == "UpdateBuffer") u.push_back(c);
    return u;
}
}  // namespace

TEST_CASE("a buffer rewritten between draws becomes an UpdateBuffer of the bytes written, the binding kept", "[capture][convert]") {
    const ConvertResult r = convert_capture(parse_capture(sample().bytes(), "s.vpcap"), {});
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 4);
    // Frame 1's strip reads the rewritten vertices 0 and 1 (z 0.25) and the old 2 and 3 (z 0.5).
    const auto& strip = f.draws[1].vertices;
    REQUIRE(strip.size() == 4);
    CHECK(strip[0].pos[2] == 0.25f);
    CHECK(strip[2].pos[2] == 0.5f);
    CHECK(r.scene["buffers"].contains("vb1_v1"));
    CHECK_FALSE(r.scene["buffers"].contains("vb1_v2"));
    const auto u = updates_of(r);
    REQUIRE(u.size() == 1);
    CHECK(u[0]["buffer"] == "vb1_v1");
    CHECK(u[0]["offset"] == 0);
    CHECK(bytes_of(u[0]).size() == 32);
    CHECK(r.updates == 1);
    CHECK(r.update_bytes == 32);
    size_t binds = 0;
    for (const auto& c : r.scene["commands"]) binds += c["op"] == "SetStreamSource" && c["buffer"] == "vb1_v1";
    CHECK(binds == 1);
}

TEST_CASE("writes between two draws become one UpdateBuffer from the first byte written to the last", "[capture][convert]") {
    CaptureWriter w = sample();
    w.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 48, 16, 0x1000}, vertices({1, 1, 0.75f}));  // vertex 3 (NOOVERWRITE)
    w.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 16, 16, 0x1000}, vertices({1, 0, 0.75f}));  // vertex 1
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});  // the user-pointer draws unbound it
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {5, 0, 2}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "s.vpcap"), {});
    REQUIRE(r.error.empty());
    const auto u = updates_of(r);
    REQUIRE(u.size() == 2);  // frame 1's, then these
    CHECK(u[1]["offset"] == 16);
    CHECK(bytes_of(u[1]).size() == 48);  // bytes 16..63: vertex 2 unchanged between them
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 5);
    CHECK(f.draws[4].vertices[1].pos[2] == 0.75f);
    CHECK(f.draws[4].vertices[2].pos[2] == 0.5f);
    CHECK(f.draws[4].vertices[3].pos[2] == 0.75f);
}

TEST_CASE("convert writes buffer and UpdateBuffer bytes as base64 with the buffer's size by default", "[capture][convert]") {
    const ConvertResult r = convert_capture(parse_capture(sample().bytes(), "s.vpcap"), {});
    REQUIRE(r.error.empty());
    const auto& vb = r.scene["buffers"]["vb1_v1"];
    CHECK_FALSE(vb.contains("bytes"));
    CHECK(vb["size"] == 64);
    const std::string v = vertices({0, 0, 0.5f, 1, 0, 0.5f, 0, 1, 0.5f, 1, 1, 0.5f});
    CHECK(bytes_of(vb) == std::vector<uint8_t>(v.begin(), v.end()));
    const auto u = updates_of(r);
    REQUIRE(u.size() == 1);
    CHECK_FALSE(u[0].contains("bytes"));
    const std::string w = vertices({0, 0, 0.25f, 1, 0, 0.25f});
    CHECK(bytes_of(u[0]) == std::vector<uint8_t>(w.begin(), w.end()));
}

TEST_CASE("convert's array encoding writes the same bytes as base64, and the scenes read the same", "[capture][convert]") {
    const Capture c = parse_capture(sample().bytes(), "s.vpcap");
    ConvertOptions o;
    o.base64 = false;
    const ConvertResult a = convert_capture(c, o), b = convert_capture(c, {});
    REQUIRE(a.error.empty());
    REQUIRE(a.scene["buffers"].size() == b.scene["buffers"].size());
    for (auto it = a.scene["buffers"].begin(); it != a.scene["buffers"].end(); ++it) {
        INFO(it.key());
        CHECK(it->contains("bytes"));
        CHECK_FALSE(it->contains("base64"));
        CHECK(bytes_of(*it) == bytes_of(b.scene["buffers"][it.key()]));
    }
    const auto ua = updates_of(a), ub = updates_of(b);
    REQUIRE(ua.size() == ub.size());
    for (size_t i = 0; i < ua.size(); ++i) CHECK(bytes_of(ua[i]) == bytes_of(ub[i]));
    const scene::Scene sa = to_scene(a), sb = to_scene(b);
    for (const auto& [name, buf] : sa.buffers) {
        INFO(name);
        REQUIRE(sb.buffers.count(name));
        CHECK(buf.bytes == sb.buffers.at(name).bytes);
        CHECK(buf.index_size == sb.buffers.at(name).index_size);
    }
    const auto fa = scene::run_functional(sa, vs::Profile{}), fb = scene::run_functional(sb, vs::Profile{});
    REQUIRE(fa.draws.size() == fb.draws.size());
    for (size_t d = 0; d < fa.draws.size(); ++d) {
        REQUIRE(fa.draws[d].vertices.size() == fb.draws[d].vertices.size());
        for (size_t v = 0; v < fa.draws[d].vertices.size(); ++v)
            CHECK(vs::same_bits(fa.draws[d].vertices[v], fb.draws[d].vertices[v]));
    }
}

TEST_CASE("a scene has the constant registers its shaders name, beyond 96 too", "[capture][convert]") {
    // The program's device had them (Wine reports more than 96): Irrlicht's parallax shader reads c96.
    CaptureWriter w;
    w.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 160, 120, 1});
    const std::vector<uint32_t> tokens = {0x20000000u, 0x40020000u, 0xFFFFFFFFu,  // STREAM(0), REG(0, FLOAT3), END
                                          0xFFFE0101u, 0x00000001u, 0xC00F0000u, 0xA0E40060u, 0x0000FFFFu};  // vs.1.1 mov oPos, c96
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {7, 0, 3, 5}, std::string(reinterpret_cast<const char*>(tokens.data()), 4 * tokens.size()));
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "c.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.scene["const_count"] == 97);
    CHECK_NOTHROW(scene::run_functional(to_scene(r), vs::Profile{}));
}

TEST_CASE("user-pointer vertices narrower than the shader's declaration are laid out as D3D8 reads them", "[capture][convert]") {
    // Irrlicht's shaders declare FLOAT3, FLOAT3, D3DCOLOR, FLOAT2, FLOAT2 (44 bytes) for 36-byte vertices.
    CaptureWriter w;
    w.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 160, 120, 1});
    const std::vector<uint32_t> tokens = {0x20000000u, 0x40020000u, 0x40020001u, 0x40040002u, 0x40010003u, 0x40010004u, 0xFFFFFFFFu,
                                          0xFFFE0101u, 0x00000001u, 0xC00F0000u, 0x90E40000u,   // mov oPos, v0
                                          0x00000001u, 0xE00F0000u, 0x90E40004u, 0x0000FFFFu};  // mov oT0, v4
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {7, 0, 7, 8}, std::string(reinterpret_cast<const char*>(tokens.data()), 4 * tokens.size()));
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {7});
    std::vector<float> v(27, 0.0f);  // 3 vertices of 9 words; vertex k's position x is k + 1
    for (int k = 0; k < 3; ++k) v[9 * k] = float(k + 1);
    w.call(VPSIM_OP_DRAW_PRIMITIVE_UP, {4, 1, 36, 108}, std::string(reinterpret_cast<const char*>(v.data()), 108));
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "u.vpcap"), {});
    REQUIRE(r.error.empty());
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 1);
    REQUIRE(f.draws[0].vertices.size() == 3);
    // v4 of vertex 0 is the first 8 bytes of vertex 1 (its x, then y 0); of the last, zeros past the data.
    CHECK(f.draws[0].vertices[0].t[0][0] == 2.0f);
    CHECK(f.draws[0].vertices[1].t[0][0] == 3.0f);
    CHECK(f.draws[0].vertices[2].t[0][0] == 0.0f);
}

TEST_CASE("render states outside the vertex pipeline are left out and counted", "[capture][convert]") {
    const ConvertResult r = convert_capture(parse_capture(sample().bytes(), "s.vpcap"), {});
    REQUIRE(r.dropped.size() == 1);
    CHECK(r.dropped.begin()->first.find("SetRenderState 7") == 0);
    CHECK(r.dropped.begin()->second == 1);
}

TEST_CASE("texture stage blending states are kept, the ones outside the vertex program dropped", "[capture][convert]") {
    // COLOROP/COLORARG1 decide whether a stage reads the specular colour (oD1); ADDRESSU (13) is the sampler's.
    CaptureWriter w;
    w.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 160, 120, 1});
    w.call(VPSIM_OP_SET_TEXTURE_STAGE_STATE, {0, 1, 2});  // stage 0 COLOROP SELECTARG1
    w.call(VPSIM_OP_SET_TEXTURE_STAGE_STATE, {0, 2, 4});  // stage 0 COLORARG1 SPECULAR
    w.call(VPSIM_OP_SET_TEXTURE_STAGE_STATE, {1, 13, 3});  // stage 1 ADDRESSU CLAMP: dropped
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_DRAW_PRIMITIVE_UP, {4, 1, 16, 48}, vertices({0, 0, 0, 1, 0, 0, 0, 1, 0}));
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "t.vpcap"), {});
    REQUIRE(r.error.empty());
    size_t kept = 0;
    for (const auto& c : r.scene["commands"])
        if (c["op"] == "SetTextureStageState") {
            CHECK(c["stage"] == 0);
            kept += (c["state"] == 1 && c["value"] == 2) + (c["state"] == 2 && c["value"] == 4);
        }
    CHECK(kept == 2);
    REQUIRE(r.dropped.size() == 1);
    CHECK(r.dropped.begin()->first.find("SetTextureStageState state 13") == 0);
    // The scene reads them: its draw's program writes oD1 for the stage reading SPECULAR.
    const auto f = scene::run_functional(to_scene(r), vs::Profile::d3d8());
    REQUIRE(f.draws.size() == 1);
    CHECK((f.draws[0].outputs_written & vs::kOutD1));
}

TEST_CASE("convert --frames keeps the range's draws and the state of the frames before it", "[capture][convert]") {
    ConvertOptions o;
    o.first = o.last = 1;
    const ConvertResult r = convert_capture(parse_capture(sample().bytes(), "s.vpcap"), o);
    REQUIRE(r.error.empty());
    CHECK(r.frames == 1);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 2);
    CHECK(f.draws[0].vertices[2].pos[2] == 0.5f);  // frame 0's bytes of vertex 2
}

TEST_CASE("a damaged capture converts every frame before the damage and names it", "[capture][convert][damage]") {
    std::string b = sample().bytes();
    const Capture whole = parse_capture(b, "s.vpcap");
    const ConvertResult r = convert_capture(parse_capture(b.substr(0, whole.frames[2].offset + 5), "s.vpcap"), {});
    CHECK(r.frames == 2);
    CHECK(r.draws == 3);
    CHECK(r.error.find("s.vpcap: frame 2, byte offset") == 0);
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 3);
}

TEST_CASE("a call the scene cannot express stops the conversion at it, its frame left out", "[capture][convert][damage]") {
    CaptureWriter w = sample();
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 7, 16}).call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const Capture c = parse_capture(w.bytes(), "s.vpcap");
    const ConvertResult r = convert_capture(c, {});
    CHECK(r.frames == 3);
    CHECK(r.error == "s.vpcap: frame 3, call 1 (DrawPrimitive), byte offset " + std::to_string(c.frames[3].calls[1].offset) +
                         ": buffer 7 was never created in this capture");
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 4);
}

TEST_CASE("the writer's frame header holds the frame's index, call count, size and FNV-1a checksum", "[capture]") {
    CaptureWriter w;
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 1}).present();
    const std::string& b = w.bytes();
    CHECK(b.compare(0, 8, "VPSIMCAP") == 0);
    CHECK(word(b, 32) == VPSIM_CAPTURE_FRAME_MAGIC);
    CHECK(word(b, 36) == 0);
    CHECK(word(b, 40) == 2);
    CHECK(word(b, 44) == 20 + 12);
    CHECK(word(b, 48) == vpsim_capture_checksum(reinterpret_cast<const unsigned char*>(b.data()) + 52, 32));
}

// ---- version 2: state blocks, Reset, ProcessVertices (docs/capture.md, "State blocks and Reset") ----
namespace {

// A probe's state: the world matrix's x translation and the AMBIENT render state's red (lighting
// on, no light, COLORVERTEX off, the material's ambient white: oD0 is AMBIENT). A probe draws one
// point at the origin: oPos.x is the translation, oD0.r AMBIENT's red / 255.
CaptureWriter& world_x(CaptureWriter& w, float x, uint16_t op = VPSIM_OP_SET_TRANSFORM) {
    return w.call_floats(op, {256}, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, x, 0, 0, 1});
}
CaptureWriter& ambient(CaptureWriter& w, uint32_t red) { return w.call(VPSIM_OP_SET_RENDER_STATE, {139, 0xFF000000u | red << 16}); }
CaptureWriter& probe(CaptureWriter& w) { return w.call(VPSIM_OP_DRAW_PRIMITIVE, {1, 0, 1}); }

// Frame 0's set-up: a device (100 x 80), a one-vertex buffer in `pool`, the lit state, world x 0.25, AMBIENT red 64.
CaptureWriter probe_setup(uint32_t pool = 1) {
    CaptureWriter w;
    w.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 100, 80, 1});
    w.call(VPSIM_OP_CREATE_VERTEX_BUFFER, {1, 16, 8, kFvfXyzDiffuse, pool});
    w.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 0, 16, 0}, vertices({0, 0, 0}));
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_SET_RENDER_STATE, {141, 0});  // COLORVERTEX FALSE
    w.call_floats(VPSIM_OP_SET_MATERIAL, {}, {0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    world_x(w, 0.25f);
    ambient(w, 64);
    return w;
}

struct Probe {
    float x, red;
};

// Converts, runs the golden model, and gives each draw's (oPos.x, oD0.r * 255).
std::vector<Probe> probes(const CaptureWriter& w) {
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "p.vpcap"), {});
    INFO(r.error);
    REQUIRE(r.error.empty());
    std::vector<Probe> out;
    for (const auto& d : scene::run_functional(to_scene(r), vs::Profile{}).draws)
        out.push_back({d.vertices.at(0).pos[0], std::round(d.vertices.at(0).d0[0] * 255)});
    return out;
}

// probe_setup(), then a block of `type` created (world x 0.25, AMBIENT red 64 current), world x 0.5
// and AMBIENT red 128 set, the block applied and one probe drawn: its probes.
std::vector<Probe> typed_block_probes(uint32_t type) {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_CREATE_STATE_BLOCK, {type, 5});
    world_x(w, 0.5f);
    ambient(w, 128);
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {5});
    probe(w).present();
    return probes(w);
}

// A Reset to width x height, stream 0 and the FVF bound again (the Reset unbound them), one probe drawn.
CaptureWriter& reset_then_probe(CaptureWriter& w, uint32_t width, uint32_t height) {
    w.call(VPSIM_OP_RESET, {width, height, 1});
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    return probe(w).present();
}

}  // namespace

TEST_CASE("ApplyStateBlock of a D3DSBT_ALL block brings back the world matrix and AMBIENT it captured", "[capture][stateblock]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_CREATE_STATE_BLOCK, {kSbtAll, 5});
    world_x(w, 0.5f);
    ambient(w, 128);
    probe(w);
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {5});
    probe(w).present();
    const auto p = probes(w);
    REQUIRE(p.size() == 2);
    CHECK(p[0].x == 0.5f);
    CHECK(p[0].red == 128);
    CHECK(p[1].x == 0.25f);
    CHECK(p[1].red == 64);
}

TEST_CASE("a D3DSBT_VERTEXSTATE block brings back AMBIENT but holds no transform", "[capture][stateblock]") {
    const auto p = typed_block_probes(kSbtVertexState);
    REQUIRE(p.size() == 1);
    CHECK(p[0].x == 0.5f);
    CHECK(p[0].red == 64);
}

TEST_CASE("a D3DSBT_PIXELSTATE block holds neither AMBIENT nor a transform", "[capture][stateblock]") {
    const auto p = typed_block_probes(kSbtPixelState);
    REQUIRE(p.size() == 1);
    CHECK(p[0].x == 0.5f);
    CHECK(p[0].red == 128);
}

TEST_CASE("a typed block sets state that was at its default when it captured back to the default", "[capture][stateblock]") {
    CaptureWriter x;
    x.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 100, 80, 1});
    x.call(VPSIM_OP_CREATE_VERTEX_BUFFER, {1, 16, 8, kFvfXyzDiffuse, 1});
    x.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 0, 16, 0}, vertices({0, 0, 0}));
    x.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    x.call(VPSIM_OP_SET_RENDER_STATE, {141, 0});
    x.call_floats(VPSIM_OP_SET_MATERIAL, {}, {0, 0, 0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0});
    x.call(VPSIM_OP_CREATE_STATE_BLOCK, {kSbtAll, 5});  // WORLD identity, AMBIENT 0, no stream bound
    world_x(x, 0.5f);
    ambient(x, 128);
    x.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});
    probe(x);
    x.call(VPSIM_OP_APPLY_STATE_BLOCK, {5});
    x.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});  // the block unbound stream 0
    probe(x).present();
    const auto p = probes(x);
    REQUIRE(p.size() == 2);
    CHECK(p[0].x == 0.5f);
    CHECK(p[1].x == 0.0f);
    CHECK(p[1].red == 0);
}

TEST_CASE("calls between BeginStateBlock and EndStateBlock change only the block, and applying it sets them",
          "[capture][stateblock]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_BEGIN_STATE_BLOCK, {});
    world_x(w, 0.75f);
    ambient(w, 192);
    w.call(VPSIM_OP_END_STATE_BLOCK, {9});
    probe(w);
    world_x(w, 0.5f);
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {9});
    probe(w).present();
    const auto p = probes(w);
    REQUIRE(p.size() == 2);
    CHECK(p[0].x == 0.25f);
    CHECK(p[0].red == 64);
    CHECK(p[1].x == 0.75f);
    CHECK(p[1].red == 192);
}

TEST_CASE("CaptureStateBlock of a recorded block takes the device's values of the states it holds, and only those",
          "[capture][stateblock]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_BEGIN_STATE_BLOCK, {});
    world_x(w, 0.75f);  // the block holds WORLD only
    w.call(VPSIM_OP_END_STATE_BLOCK, {9});
    world_x(w, 0.5f);
    ambient(w, 128);
    w.call(VPSIM_OP_CAPTURE_STATE_BLOCK, {9});  // WORLD 0.5
    world_x(w, 0.125f);
    ambient(w, 32);
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {9});
    probe(w).present();
    const auto p = probes(w);
    REQUIRE(p.size() == 1);
    CHECK(p[0].x == 0.5f);
    CHECK(p[0].red == 32);
}

TEST_CASE("MultiplyTransform recorded in a state block multiplies the block's matrix", "[capture][stateblock]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_BEGIN_STATE_BLOCK, {});
    world_x(w, 0.5f);
    world_x(w, 0.125f, VPSIM_OP_MULTIPLY_TRANSFORM);
    w.call(VPSIM_OP_END_STATE_BLOCK, {9});
    world_x(w, 0.0f);
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {9});
    probe(w).present();
    const auto p = probes(w);
    REQUIRE(p.size() == 1);
    CHECK(p[0].x == 0.625f);
}

TEST_CASE("a state block handle never created or already deleted is a located error", "[capture][stateblock][damage]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_CREATE_STATE_BLOCK, {kSbtAll, 5});
    w.call(VPSIM_OP_DELETE_STATE_BLOCK, {5});
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {5}).present();
    const Capture c = parse_capture(w.bytes(), "s.vpcap");
    const ConvertResult r = convert_capture(c, {});
    CHECK(r.error == "s.vpcap: frame 0, call 11 (ApplyStateBlock), byte offset " + std::to_string(c.frames[0].calls[11].offset) +
                         ": state block 5 was never created (or was deleted) in this capture");
}

TEST_CASE("Reset brings the state back to D3D8's defaults and the viewport to the new back buffer", "[capture][reset]") {
    CaptureWriter w = probe_setup();
    reset_then_probe(w, 64, 32);
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "r.vpcap"), {});
    REQUIRE(r.error.empty());
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 1);
    // WORLD identity; LIGHTING on, AMBIENT 0 and the default (black) material: black
    CHECK(f.draws[0].vertices[0].pos[0] == 0.0f);
    CHECK(f.draws[0].vertices[0].d0[0] == 0.0f);
    nlohmann::json vp;
    for (const auto& c : r.scene["commands"])
        if (c["op"] == "SetViewport") vp = c["viewport"];
    CHECK(vp["width"] == 64);
    CHECK(vp["height"] == 32);
}

TEST_CASE("a D3DPOOL_DEFAULT buffer drawn from after a Reset is a located error", "[capture][reset][damage]") {
    CaptureWriter w = probe_setup(kPoolDefault);
    reset_then_probe(w, 100, 80);
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "r.vpcap"), {});
    CHECK(r.error.find("frame 0, call 12 (DrawPrimitive)") != std::string::npos);
    CHECK(r.error.find("buffer 1 was in D3DPOOL_DEFAULT and was lost at the Reset in frame 0") != std::string::npos);
}

TEST_CASE("a D3DPOOL_MANAGED buffer keeps its bytes through a Reset", "[capture][reset]") {
    CaptureWriter w = probe_setup(1);
    reset_then_probe(w, 100, 80);
    CHECK(probes(w).size() == 1);
}

TEST_CASE("ProcessVertices' recorded result becomes the destination buffer's bytes", "[capture][processvertices]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_CREATE_VERTEX_BUFFER, {2, 32, 0, kFvfXyzDiffuse, 2});
    // source start 0, destination index 1, 1 vertex, buffer 2, flags 0: bytes 16..31
    w.call(VPSIM_OP_PROCESS_VERTICES, {0, 1, 1, 2, 0, 16, 16}, vertices({0.375f, 0, 0}));
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 2, 16});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {1, 1, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "pv.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.processed == 1);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 1);
    CHECK(f.draws[0].vertices[0].pos[0] == 0.625f);  // 0.375 + the world's 0.25
}

TEST_CASE("a version 1 capture is still read, and an op of version 2 in it is refused", "[capture][damage]") {
    CHECK(parse_capture(sample(1).bytes(), "v1").error.empty());
    CaptureWriter w(0, 0, 0xFFFFFFFFu, 1);
    w.call(VPSIM_OP_RESET, {64, 32, 1}).present();
    CHECK(parse_capture(w.bytes(), "v1").error == "v1: frame 0, call 0, byte offset 52: unknown op 33 (capture version 1 knows 1..24)");
}

TEST_CASE("capture info counts state-block calls, ProcessVertices and their vertices, and Resets", "[capture][info]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_CREATE_VERTEX_BUFFER, {2, 32, 0, kFvfXyzDiffuse, 2});
    w.call(VPSIM_OP_PROCESS_VERTICES, {0, 0, 2, 2, 0, 0, 32}, vertices({0, 0, 0, 1, 0, 0}));
    w.call(VPSIM_OP_BEGIN_STATE_BLOCK, {});
    w.call(VPSIM_OP_END_STATE_BLOCK, {1});
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {1});
    w.call(VPSIM_OP_RESET, {64, 32, 1}).present();
    const auto f = capture_info(parse_capture(w.bytes(), "i.vpcap"));
    REQUIRE(f.size() == 1);
    CHECK(f[0].state_block_calls == 3);
    CHECK(f[0].process_vertices_calls == 1);
    CHECK(f[0].processed_vertices == 2);
    CHECK(f[0].resets == 1);
}

TEST_CASE("CreateStateBlock of a number that is no D3DSTATEBLOCKTYPE is a located error", "[capture][stateblock][damage]") {
    CaptureWriter w = probe_setup();
    w.call(VPSIM_OP_CREATE_STATE_BLOCK, {4, 5}).present();
    const Capture c = parse_capture(w.bytes(), "s.vpcap");
    const ConvertResult r = convert_capture(c, {});
    CHECK(r.error == "s.vpcap: frame 0, call 9 (CreateStateBlock), byte offset " + std::to_string(c.frames[0].calls[9].offset) +
                         ": state block type 4 is not a D3DSTATEBLOCKTYPE (1 ALL, 2 PIXELSTATE, 3 VERTEXSTATE)");
}

TEST_CASE("a ProcessVertices call whose byte count is not the bytes it carries is damage at its call", "[capture][processvertices][damage]") {
    CaptureWriter w;
    w.call(VPSIM_OP_PROCESS_VERTICES, {0, 0, 1, 2, 0, 0, 32}, vertices({0, 0, 0})).present();  // 16 bytes, 32 announced
    CHECK(parse_capture(w.bytes(), "pv.vpcap").error ==
          "pv.vpcap: frame 0, call 0, byte offset 52: ProcessVertices takes 60 argument bytes (its fixed 28 and the data its counts say), found 44");
}

// ---- version 3: each call's HRESULT; calls the runtime refused, draws that draw nothing (docs/capture.md) ----
namespace {
const uint32_t kInvalidCall = 0x8876086Cu;  // D3DERR_INVALIDCALL

// A device, an FVF and a 3-vertex buffer bound to stream 0.
CaptureWriter triangle_setup() {
    CaptureWriter w;
    w.call(VPSIM_OP_CREATE_DEVICE, {0, 1, kCreateHardwareVp, 160, 120, 1});
    w.call(VPSIM_OP_CREATE_VERTEX_BUFFER, {1, 48, 8, kFvfXyzDiffuse, 1});
    w.call(VPSIM_OP_VERTEX_BUFFER_DATA, {1, 0, 48, 0}, vertices({0, 0, 0.5f, 1, 0, 0.5f, 0, 1, 0.5f}));
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 0});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_SET_STREAM_SOURCE, {0, 1, 16});
    return w;
}
}  // namespace

TEST_CASE("a version 3 call header holds the call's HRESULT", "[capture]") {
    CaptureWriter w;
    w.call_hr(VPSIM_OP_SET_RENDER_STATE, kInvalidCall, {137, 1}).present();
    const std::string& b = w.bytes();
    CHECK(word(b, 8) == 3);
    CHECK(word(b, 52 + 4) == 8);             // argument bytes
    CHECK(word(b, 52 + 8) == kInvalidCall);  // the HRESULT
    CHECK(word(b, 52 + 12) == 137);          // the arguments after it
    const Capture c = parse_capture(b, "h.vpcap");
    REQUIRE(c.error.empty());
    CHECK(c.frames[0].calls[0].hresult == kInvalidCall);
    CHECK(c.frames[0].calls[0].refused());
    CHECK_FALSE(c.frames[0].calls[1].refused());
}

TEST_CASE("a version 2 capture, 8-byte call headers and no HRESULT, is still read", "[capture][damage]") {
    CaptureWriter w(0, 0, 0xFFFFFFFFu, 2);
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 1}).call(VPSIM_OP_RESET, {64, 32, 1}).present();
    const Capture c = parse_capture(w.bytes(), "v2");
    REQUIRE(c.error.empty());
    REQUIRE(c.frames[0].calls.size() == 3);
    CHECK(c.frames[0].calls[1].offset == 52 + 8 + 8);
    CHECK(c.frames[0].calls[1].hresult == 0);
}

TEST_CASE("calls the runtime refused are left out of the scene and counted", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call_hr(VPSIM_OP_SET_VERTEX_SHADER, kInvalidCall, {0xDEADu});            // no such handle
    w.call_hr(VPSIM_OP_SET_STREAM_SOURCE, kInvalidCall, {0, 9, 16});             // no such buffer
    w.call_hr(VPSIM_OP_DRAW_PRIMITIVE, kInvalidCall, {4, 0, 1});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "r.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.refused == 3);
    CHECK(r.draws == 1);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    CHECK(f.draws.size() == 1);
}

TEST_CASE("capture info counts the calls the runtime refused, and nothing else of them", "[capture][info]") {
    CaptureWriter w = triangle_setup();
    w.call_hr(VPSIM_OP_DRAW_PRIMITIVE, kInvalidCall, {4, 0, 1});
    w.call_hr(VPSIM_OP_SET_LIGHT, kInvalidCall, std::vector<uint32_t>(27, 0));
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const Capture c = parse_capture(w.bytes(), "r.vpcap");
    const auto f = capture_info(c);
    REQUIRE(f.size() == 1);
    CHECK(f[0].refused_calls == 2);
    CHECK(f[0].draws == 1);
    CHECK(f[0].state_calls == 1);  // the LIGHTING render state only
    CHECK(info_text(c, f).find("calls the runtime refused 2") != std::string::npos);
}

TEST_CASE("an indexed draw with no index buffer set draws nothing: left out and counted", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_DRAW_INDEXED_PRIMITIVE, {4, 0, 3, 0, 1});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "i.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    REQUIRE(r.dropped.size() == 1);
    CHECK(r.dropped.begin()->first == "DrawIndexedPrimitive with no index buffer set (D3D8 accepts it and draws nothing)");
}

TEST_CASE("a user-pointer draw of 0 primitives draws nothing and leaves stream 0 bound", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_DRAW_PRIMITIVE_UP, {4, 0, 16, 0});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();  // still from buffer 1
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "u.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(r.dropped.count("DrawPrimitiveUP with 0 primitives (D3D8 accepts it and draws nothing)") == 1);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 1);
    CHECK(f.draws[0].vertices[1].pos[0] == 1.0f);
}

TEST_CASE("draws through an FVF with no position are left out, and so is its SetVertexShader", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {0});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "f.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(r.dropped.count("DrawPrimitive with FVF 0x0, which has no position (D3D8 accepts it and draws nothing)") == 1);
    for (const auto& c : r.scene["commands"]) CHECK_FALSE((c["op"] == "SetVertexShader" && c.contains("fvf") && c["fvf"] == 0));
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 1);
}

TEST_CASE("DrawIndexedPrimitive with NumVertices 0 is converted without a vertex range", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_CREATE_INDEX_BUFFER, {2, 6, 8, kFmtIndex16, 1});
    w.call(VPSIM_OP_INDEX_BUFFER_DATA, {2, 0, 6, 0}, indices16({0, 1, 2}));
    w.call(VPSIM_OP_SET_INDICES, {2, 0});
    w.call(VPSIM_OP_DRAW_INDEXED_PRIMITIVE, {4, 0, 0, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "n.vpcap"), {});
    REQUIRE(r.error.empty());
    REQUIRE(r.draws == 1);
    for (const auto& c : r.scene["commands"])
        if (c["op"] == "DrawIndexedPrimitive") CHECK_FALSE(c.contains("num_vertices"));
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 1);
}

// ---- CreateVertexShader calls Windows' runtime refuses and Wine accepts (declaration rules D16, D17) ----
namespace {
// STREAM(0), REG(v0, FLOAT3), END; a vs.1.1 function: mov oPos, v0 (reads_v1: then mov oD0, v1).
std::string shader_call_args(bool reads_v1) {
    std::vector<uint32_t> t = {0x20000000u, 0x40020000u, 0xFFFFFFFFu, 0xFFFE0101u, 0x00000001u, 0xC00F0000u, 0x90E40000u};
    if (reads_v1) t.insert(t.end(), {0x00000001u, 0xD00F0000u, 0x90E40001u});
    t.push_back(0x0000FFFFu);
    return std::string(reinterpret_cast<const char*>(t.data()), 4 * t.size());
}
const uint32_t kD17Handle = 7;
// triangle_setup, then CreateVertexShader(7) of a shader that reads v1 its declaration does not load.
CaptureWriter d17_setup() {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {kD17Handle, 0, 3, 8}, shader_call_args(true));
    return w;
}
const char* const kD17 = "D17 (input-not-loaded): the shader reads v1 but the declaration does not load it";
}  // namespace

TEST_CASE("a CreateVertexShader that fails D17 is left out, counted with the rule", "[capture][convert]") {
    CaptureWriter w = d17_setup();
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    REQUIRE(r.windows_refused.size() == 1);
    CHECK(r.windows_refused.begin()->first == std::string("CreateVertexShader failing ") + kD17);
    CHECK(r.windows_refused.begin()->second == 1);
    for (const auto& c : r.scene["commands"]) CHECK(c["op"] != "CreateVertexShader");
}

TEST_CASE("the SetVertexShader and the draws through a shader Windows refuses are left out and counted", "[capture][convert]") {
    CaptureWriter w = d17_setup();
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kD17Handle});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.call(VPSIM_OP_DRAW_PRIMITIVE_UP, {4, 1, 16, 48}, vertices({0, 0, 0, 1, 0, 0, 0, 1, 0}));
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 0);
    CHECK(r.windows_refused.at(std::string("SetVertexShader of a shader whose CreateVertexShader failed ") + kD17) == 1);
    CHECK(r.windows_refused.at(std::string("DrawPrimitive through a shader whose CreateVertexShader failed ") + kD17) == 1);
    CHECK(r.windows_refused.at(std::string("DrawPrimitiveUP through a shader whose CreateVertexShader failed ") + kD17) == 1);
}

TEST_CASE("draws after selecting a shader again, once a refused one was selected, are converted", "[capture][convert]") {
    CaptureWriter w = d17_setup();
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kD17Handle});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 1);
}

TEST_CASE("a shader whose declaration loads every register it reads is created as before", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {kD17Handle, 0, 3, 5}, shader_call_args(false));
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kD17Handle});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.windows_refused.empty());
    CHECK(r.draws == 1);
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 1);
}

TEST_CASE("a fixed-function declaration loading NORMAL as FLOAT4 fails D16 and is left out", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    const std::vector<uint32_t> t = {0x20000000u, 0x40020000u, 0x40030003u, 0xFFFFFFFFu};  // STREAM(0), v0 FLOAT3, v3 FLOAT4, END
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {9, 0, 4, 0}, std::string(reinterpret_cast<const char*>(t.data()), 4 * t.size()));
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    REQUIRE(r.windows_refused.size() == 1);
    CHECK(r.windows_refused.begin()->first.rfind("CreateVertexShader failing D16 (", 0) == 0);
}

TEST_CASE("a state block holding a refused shader leaves the draws after its apply out", "[capture][convert]") {
    CaptureWriter w = d17_setup();
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kD17Handle});
    w.call(VPSIM_OP_CREATE_STATE_BLOCK, {3, 1});  // VERTEXSTATE: holds the vertex shader
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {1});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(r.windows_refused.at(std::string("DrawPrimitive through a shader whose CreateVertexShader failed ") + kD17) == 1);
}

TEST_CASE("ApplyStateBlock of handle 0 applies nothing: left out and counted", "[capture][convert][stateblock]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_BEGIN_STATE_BLOCK, {});
    w.call(VPSIM_OP_SET_RENDER_STATE, {137, 1});  // LIGHTING TRUE, recorded only
    w.call(VPSIM_OP_END_STATE_BLOCK, {1});
    w.call(VPSIM_OP_APPLY_STATE_BLOCK, {0});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "a.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(r.dropped.count("ApplyStateBlock of handle 0 (D3D8 accepts it and applies nothing)") == 1);
    int lighting = 0;  // the LIGHTING state the scene sets: FALSE from triangle_setup only
    for (const auto& c : r.scene["commands"])
        if (c["op"] == "SetRenderState" && c["state"] == 137) {
            CHECK(c["value"] == false);
            ++lighting;
        }
    CHECK(lighting == 1);
}

// ---- Draws that read past the end of a vertex buffer (D3D8: undefined; the scene: zeros) ----

TEST_CASE("a DrawPrimitive past the end of its vertex buffer reads zeros there, counted", "[capture][convert]") {
    CaptureWriter w = triangle_setup();  // 3 vertices, 48 bytes
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 2}).present();  // 6 vertices, as Wine's test_draw_primitive does
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "p.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(r.past_end_draws == 1);
    CHECK(r.past_end_zero_bytes == 48);
    REQUIRE(r.scene["buffers"].contains("vb1_v1_z48"));
    CHECK(bytes_of(r.scene["buffers"]["vb1_v1_z48"]).size() == 96);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 1);
    REQUIRE(f.draws[0].vertices.size() == 6);
    CHECK(f.draws[0].vertices[2].pos[2] == 0.5f);  // the buffer's vertex 2
    CHECK(f.draws[0].vertices[3].pos[0] == 0.0f);  // vertex 3: zeros
    CHECK(f.draws[0].vertices[3].pos[2] == 0.0f);
}

TEST_CASE("an indexed draw whose largest index plus the base vertex is past the buffer's end reads zeros there",
          "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_CREATE_INDEX_BUFFER, {2, 6, 8, kFmtIndex16, 1});
    w.call(VPSIM_OP_INDEX_BUFFER_DATA, {2, 0, 6, 0}, indices16({0, 1, 2}));
    w.call(VPSIM_OP_SET_INDICES, {2, 1});  // base vertex 1: vertices 1..3
    w.call(VPSIM_OP_DRAW_INDEXED_PRIMITIVE, {4, 0, 3, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "i.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.past_end_draws == 1);
    CHECK(r.past_end_zero_bytes == 16);
    const auto f = scene::run_functional(to_scene(r), vs::Profile{});
    REQUIRE(f.draws.size() == 1);
    CHECK(f.draws[0].vertices[2].pos[2] == 0.0f);
}

TEST_CASE("a buffer already in the scene gets a new scene buffer with the zeros, bound for the draw past its end",
          "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});  // within the buffer
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 1, 1});  // vertices 1..3
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "b.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.past_end_draws == 1);
    CHECK(bytes_of(r.scene["buffers"]["vb1_v1"]).size() == 48);
    CHECK(bytes_of(r.scene["buffers"]["vb1_v1_z16"]).size() == 64);
    std::vector<std::string> bound;
    for (const auto& c : r.scene["commands"])
        if (c["op"] == "SetStreamSource") bound.push_back(c["buffer"]);
    CHECK(bound == std::vector<std::string>{"vb1_v1", "vb1_v1_z16"});  // the padded one serves the later draw too
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 3);
}

TEST_CASE("a draw more than 64 KiB past the end of its vertex buffer is a located conversion error", "[capture][convert][damage]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {1, 0, 5000}).present();  // 5000 points: 80,000 bytes
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "h.vpcap"), {});
    CHECK(r.error.find("frame 0, call 6 (DrawPrimitive)") != std::string::npos);
    CHECK(r.error.find("reads bytes up to 79999 of vertex buffer 1 (stream 0), which holds 48: more than 65536 bytes "
                       "past its end") != std::string::npos);
}

// ---- vs_1_1 functions in D3D9's form (dcl, def): Windows' d3d8 accepts them, vpsim's vs.1.x cannot express them ----
namespace {
// Wine's test_unsupported_shaders' vs_1_255: vs_1_1, dcl_position v0, def c255, add r0, v0, c255, mov oPos, r0.
std::string d3d9_form_call_args() {
    const std::vector<uint32_t> t = {0x20000000u, 0x40020000u, 0xFFFFFFFFu,  // STREAM(0), REG(v0, FLOAT3), END
                                     0xFFFE0101u, 0x0000001Fu, 0x80000000u, 0x900F0000u, 0x00000051u, 0xA00F00FFu,
                                     0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u, 0x00000002u, 0x800F0000u,
                                     0x90E40000u, 0xA0E400FFu, 0x00000001u, 0xC00F0000u, 0x80E40000u, 0x0000FFFFu};
    return std::string(reinterpret_cast<const char*>(t.data()), 4 * t.size());
}
const char* const kD3D9Form = "in D3D9's vs_1_1 form (dcl at token 1)";
}  // namespace

TEST_CASE("a CreateVertexShader in D3D9's vs_1_1 form is left out, counted apart from Windows' refusals", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {5, 0, 3, 18}, d3d9_form_call_args());
    w.call(VPSIM_OP_DELETE_VERTEX_SHADER, {5}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "9.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.windows_refused.empty());
    CHECK(r.not_expressible.at(std::string("CreateVertexShader ") + kD3D9Form) == 1);
    CHECK(r.not_expressible.at(std::string("DeleteVertexShader of a shader ") + kD3D9Form) == 1);
    for (const auto& c : r.scene["commands"]) CHECK(c["op"] != "CreateVertexShader");
    CHECK_NOTHROW(scene::run_functional(to_scene(r), vs::Profile{}));
}

TEST_CASE("the SetVertexShader and the draws through a D3D9-form shader are left out and counted", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {5, 0, 3, 18}, d3d9_form_call_args());
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {5});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1});
    w.call(VPSIM_OP_SET_VERTEX_SHADER, {kFvfXyzDiffuse});
    w.call(VPSIM_OP_DRAW_PRIMITIVE, {4, 0, 1}).present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "9.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.draws == 1);
    CHECK(r.not_expressible.at(std::string("SetVertexShader of a shader ") + kD3D9Form) == 1);
    CHECK(r.not_expressible.at(std::string("DrawPrimitive through a shader ") + kD3D9Form) == 1);
    CHECK(scene::run_functional(to_scene(r), vs::Profile{}).draws.size() == 1);
}

TEST_CASE("a def in a vs.1.1 function is D3D9's form too", "[capture][convert]") {
    CaptureWriter w = triangle_setup();
    const std::vector<uint32_t> t = {0x20000000u, 0x40020000u, 0xFFFFFFFFu, 0xFFFE0101u, 0x00000051u, 0xA00F0001u,
                                     0x3F800000u, 0x3F800000u, 0x3F800000u, 0x3F800000u, 0x00000001u, 0xC00F0000u,
                                     0x90E40000u, 0x0000FFFFu};  // def c1, 1, 1, 1, 1; mov oPos, v0
    w.call(VPSIM_OP_CREATE_VERTEX_SHADER, {5, 0, 3, 11}, std::string(reinterpret_cast<const char*>(t.data()), 4 * t.size()));
    w.present();
    const ConvertResult r = convert_capture(parse_capture(w.bytes(), "d.vpcap"), {});
    REQUIRE(r.error.empty());
    CHECK(r.not_expressible.count("CreateVertexShader in D3D9's vs_1_1 form (def at token 1)") == 1);
}

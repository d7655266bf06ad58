// The state commands a later command replaces whole (model/scene/state_override.h): what each
// kind of command sets, what replaces it, and what never is replaced.
#include "model/decl/decl_tokens.h"
#include "model/scene/state_override.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>

#include <cstring>

namespace {

using namespace vpsim;
using namespace vpsim::scene;

struct OverrideScene {
    Scene s;
    size_t add(CommandBody b) {
        s.commands.push_back({std::move(b), fmt::format("/commands/{}", s.commands.size())});
        return s.commands.size() - 1;
    }
};

SetVertexShaderConstant ov_constants(uint32_t reg, size_t count) {
    SetVertexShaderConstant c;
    c.reg = reg;
    c.values.resize(count);
    return c;
}

UpdateBuffer ov_update(const std::string& buffer, uint32_t offset, size_t bytes) {
    UpdateBuffer u;
    u.buffer = buffer;
    u.offset = offset;
    u.bytes.resize(bytes);
    return u;
}

CreateVertexShader ov_shader(const std::string& name, bool with_constants) {
    CreateVertexShader c;
    c.name = name;
    c.declaration = {decl::D3DVSD_STREAM(0), decl::D3DVSD_REG(0, 2)};  // v0: FLOAT3
    if (with_constants) {
        c.declaration.push_back(decl::D3DVSD_CONST(4, 1));
        for (int k = 0; k < 4; ++k) c.declaration.push_back(0x3F800000u);
    }
    c.declaration.push_back(decl::D3DVSD_END());
    return c;
}

template <class T>
T ov_state(uint32_t state) {  // a command of a render state, transform ...
    T t;
    t.state = state;
    return t;
}

SetVertexShader ov_use(const std::string& name) {
    SetVertexShader v;
    v.name = name;
    return v;
}

}  // namespace

TEST_CASE("state override: a constant write is replaced once every register it wrote is written again",
          "[scene][state_override]") {
    OverrideScene c;
    const size_t a = c.add(ov_constants(0, 4));  // c0..c3
    c.add(ov_constants(0, 2));                   // c0, c1
    const size_t last = c.add(ov_constants(2, 2));  // c2, c3: now all four are written again
    const size_t b = c.add(ov_constants(8, 2));  // c8, c9: never again
    const auto r = replaced_at(c.s);
    CHECK(r[a] == last);
    CHECK(r[b] == kNotReplaced);
}

TEST_CASE("state override: an UpdateBuffer is replaced by a later one of the same buffer covering its bytes",
          "[scene][state_override]") {
    OverrideScene c;
    const size_t a = c.add(ov_update("vb", 16, 32));  // bytes 16..47
    c.add(ov_update("vb", 16, 16));                   // part of them only
    c.add(ov_update("other", 0, 64));                 // another buffer
    const size_t cover = c.add(ov_update("vb", 0, 64));
    const auto r = replaced_at(c.s);
    CHECK(r[a] == cover);
    CHECK(r[a + 1] == cover);
    CHECK(r[a + 2] == kNotReplaced);
}

TEST_CASE("state override: a SetVertexShader whose declaration writes constants is never replaced",
          "[scene][state_override]") {
    OverrideScene c;
    c.add(ov_shader("plain", false));
    c.add(ov_shader("consts", true));
    const size_t plain = c.add(ov_use("plain"));
    const size_t consts = c.add(ov_use("consts"));
    SetVertexShader fvf;
    fvf.fvf = 0x002;  // D3DFVF_XYZ
    const size_t by_fvf = c.add(fvf);
    c.add(ov_use("plain"));
    const auto r = replaced_at(c.s);
    CHECK(r[plain] == consts);
    CHECK(r[consts] == kNotReplaced);  // its c4 stays written until a constant write replaces it
    CHECK(r[by_fvf] == by_fvf + 1);
    CHECK(r[0] == kNotReplaced);  // CreateVertexShader
}

TEST_CASE("state override: MultiplyTransform reads the matrix, so only a SetTransform replaces one",
          "[scene][state_override]") {
    OverrideScene c;
    const auto world = ov_state<SetTransform>(256);
    const size_t set = c.add(world);
    const size_t mul = c.add(ov_state<MultiplyTransform>(256));
    c.add(ov_state<SetTransform>(2));  // the view matrix
    auto r = replaced_at(c.s);
    CHECK(r[set] == kNotReplaced);  // the MultiplyTransform after it read it; nothing sets it again
    CHECK(r[mul] == kNotReplaced);
    const size_t again = c.add(world);
    r = replaced_at(c.s);
    CHECK(r[set] == again);
    CHECK(r[mul] == again);
}

TEST_CASE("state override: render, stage, light, stream and index state is replaced slot by slot",
          "[scene][state_override]") {
    OverrideScene c;
    const auto fog_start = ov_state<SetRenderState>(36), fog_end = ov_state<SetRenderState>(37);
    SetTextureStageState s0, s1;
    s1.stage = 1;
    SetLight l0, l1;
    l1.index = 1;
    LightEnable e0;
    SetStreamSource st0, st1;
    st1.stream = 1;
    SetIndices ib;
    const size_t first = c.add(fog_start);
    for (CommandBody b : {CommandBody(fog_end), CommandBody(s0), CommandBody(s1), CommandBody(l0), CommandBody(l1),
                          CommandBody(e0), CommandBody(st0), CommandBody(st1), CommandBody(ib)})
        c.add(b);
    DrawPrimitive draw;
    const size_t d = c.add(draw);
    const size_t second = c.add(fog_start);
    c.add(s0);
    const size_t light = c.add(l0);
    c.add(st0);
    c.add(ib);
    const auto r = replaced_at(c.s);
    CHECK(r[first] == second);
    CHECK(r[first + 1] == kNotReplaced);  // FOGEND
    CHECK(r[first + 2] == second + 1);    // stage 0's state 11
    CHECK(r[first + 3] == kNotReplaced);  // stage 1's
    CHECK(r[first + 4] == light);         // light 0
    CHECK(r[first + 5] == kNotReplaced);  // light 1
    CHECK(r[first + 6] == kNotReplaced);  // light 0's enable flag: SetLight does not set it
    CHECK(r[first + 7] == light + 1);     // stream 0
    CHECK(r[first + 8] == kNotReplaced);  // stream 1
    CHECK(r[first + 9] == light + 2);     // the indices
    CHECK(r[d] == kNotReplaced);          // a draw
}

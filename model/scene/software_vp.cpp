// Software vertex processing in the scene machine (docs/scenes.md, "Software and mixed vertex
// processing"). On a device created with D3DCREATE_SOFTWARE_VERTEXPROCESSING, or a MIXED one
// while D3DRS_SOFTWAREVERTEXPROCESSING is TRUE, the D3D8 runtime transforms and lights the draw's
// vertices on the CPU and hands the hardware pre-transformed vertices. Here the CPU's work is the
// golden model's (the fixed-function reference processor with the runtime's caps, or the
// reference interpreter of the application's program), done exactly, and the draw the hardware
// sees reads those outputs from a buffer of pre-transformed vertices through a pass-through
// program: no transform or lighting on the vertex engine. The hardware sees what the runtime
// gives it: the CPU's positions and texture coordinates as computed, its colours as D3DCOLOR (8
// bits each) with the fog factor in the specular alpha.
#include "model/scene/scene_machine.h"

#include "model/decl/decl_tokens.h"
#include "model/ff/ff_reference.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_load.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>

namespace vpsim::scene {

namespace {

// The pre-transformed vertex the runtime hands the hardware, in D3D's FVF order: position (the
// clip-space oPos, FLOAT4), point size (FLOAT1), diffuse and specular (D3DCOLOR; the specular
// alpha carries the fog factor, as in every pre-transformed vertex), texture coordinates (as many
// floats as the stage produces). The registers are the D3DVSDE numbers an XYZRHW FVF loads.
struct Layout {
    uint32_t written = 0;                  // vs::kOut* bits
    std::array<uint32_t, vs::kNumTexcoords> dims{};  // floats per written texture coordinate set
    std::vector<uint32_t> tokens;
    std::string program;
    uint32_t stride = 0;
};

Layout layout_of(uint32_t written, const std::array<uint32_t, vs::kNumTexcoords>& dims) {
    Layout l;
    l.written = written;
    l.dims = dims;
    l.tokens.push_back(decl::D3DVSD_STREAM(0));
    std::string p = "vs.1.1\n; software vertex processing: the CPU's pre-transformed vertices, passed through\n";
    const auto reg = [&](uint32_t r, uint32_t type, const std::string& moves) {
        l.tokens.push_back(decl::D3DVSD_REG(r, type));
        l.stride += decl::data_type_size(type);
        p += moves;
    };
    reg(0, decl::D3DVSDT_FLOAT4, "mov oPos, v0\n");
    if (written & vs::kOutPts) reg(4, decl::D3DVSDT_FLOAT1, "mov oPts.x, v4.x\n");
    if (written & vs::kOutD0) reg(5, decl::D3DVSDT_D3DCOLOR, "mov oD0, v5\n");
    if (written & (vs::kOutD1 | vs::kOutFog))
        reg(6, decl::D3DVSDT_D3DCOLOR, std::string(written & vs::kOutD1 ? "mov oD1, v6\n" : "") +
                                           (written & vs::kOutFog ? "mov oFog.x, v6.w\n" : ""));
    constexpr uint32_t float_type[5] = {0, decl::D3DVSDT_FLOAT1, decl::D3DVSDT_FLOAT2, decl::D3DVSDT_FLOAT3,
                                        decl::D3DVSDT_FLOAT4};
    for (uint32_t t = 0; t < vs::kNumTexcoords; ++t)
        if (written & (vs::kOutT0 << t)) reg(7 + t, float_type[dims[t]], fmt::format("mov oT{0}, v{1}\n", t, 7 + t));
    l.tokens.push_back(decl::D3DVSD_END());
    l.program = p;
    return l;
}

void put(std::vector<uint8_t>& b, const float* f, size_t n) {
    const size_t at = b.size();
    b.resize(at + n * 4);
    std::memcpy(b.data() + at, f, n * 4);
}

// A colour component as the runtime stores it in a D3DCOLOR: saturated, rounded to 8 bits.
uint32_t byte_of(float c) {
    const float s = c > 0.0f ? std::min(c, 1.0f) : 0.0f;  // NaN -> 0, as the vertex stage saturates
    return uint32_t(std::lround(s * 255.0f));
}
void put_color(std::vector<uint8_t>& b, const vs::Vec4& c) {
    const uint32_t d = byte_of(c[3]) << 24 | byte_of(c[0]) << 16 | byte_of(c[1]) << 8 | byte_of(c[2]);
    const size_t at = b.size();
    b.resize(at + 4);
    std::memcpy(b.data() + at, &d, 4);  // little-endian: B, G, R, A
}

// Floats a fixed-function stage's coordinates take: COUNTn's n with a texture transform, 3 for
// generated coordinates, else the set's components.
uint32_t ff_texcoord_dims(const ff::FfState& s, const ff::FfInputs& in, uint32_t stage) {
    const ff::TextureStage& ts = s.stages[stage];
    const uint32_t count = ts.texturetransformflags & 0xFFu;
    if (count >= 2 && count <= 4 && !in.pretransformed) return count;
    if ((ts.texcoordindex & 0xFFFF0000u) != 0 && !in.pretransformed) return 3;
    const uint32_t set = ts.texcoordindex & 0xFFFFu;
    const uint32_t c = set < 8 ? in.components[ff::kDeTexcoord0 + set] : 0;
    return c >= 1 && c <= 4 ? c : 4;
}

}  // namespace

void SceneMachine::software_draw(DrawSetup& d) const {
    auto sw = std::make_shared<SoftwareDraw>();
    // The distinct vertices the draw references, in ascending order: the runtime processes each once.
    std::vector<uint32_t> verts;
    verts.reserve(d.refs);
    for (uint64_t k = 0; k < d.refs; ++k) verts.push_back(d.vertex(k));
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());

    // The CPU's outputs.
    uint32_t written = 0;
    std::vector<vs::VertexOutputs> out(verts.size());
    if (d.fixed_function) {
        if (d.ff_inputs.has(ff::kDeNormal2))
            fail(d.pointer, "software vertex processing of a tweened normal (D3DVSDE_NORMAL2) is not modelled");
        try {
            ff::check_drawable(*d.ff_state, d.ff_inputs, software_caps_);
        } catch (const ff::FfError& e) {
            fail(d.pointer, fmt::format("fixed function (software vertex processing): {}", e.what()));
        }
        written = vs::kOutPos | vs::kOutD0 | vs::kOutD1 | vs::kOutFog;
        if (ff::writes_point_size(*d.ff_state, d.ff_inputs)) written |= vs::kOutPts;
        written |= ff::texcoord_outputs(*d.ff_state, d.ff_inputs, software_caps_) * vs::kOutT0;
        sw->processed_by = "fixed function";
    } else {
        written = d.shader->validation.info.outputs_written;
        sw->processed_by = d.shader_name;
        for (const vs::Instruction& ins : d.shader->program->code) sw->program_slots += uint32_t(profile_.slots(ins.opcode));
    }
    for (size_t i = 0; i < verts.size(); ++i) {
        const uint32_t v = verts[i];
        std::array<vs::Vec4, vs::kNumInputs> in{};
        try {
            in = d.generated ? d.generated->vertices[v] : vs::fetch_vertex(d.shader->decl, d.streams, v);
        } catch (const vs::FetchError& e) {
            throw fetch_error(d, e);
        }
        if (d.fixed_function) {
            ff::FfRegisters regs{};
            for (uint32_t r = 0; r < vs::kNumInputs; ++r) regs[r] = in[r];
            try {
                out[i] = ff::process_vertex(*d.ff_state, d.ff_inputs, regs, software_caps_);
            } catch (const ff::FfError& e) {
                fail(d.pointer, fmt::format("fixed function (software vertex processing): vertex {}: {}", v, e.what()));
            }
        } else {
            out[i] = vs::execute_reference(*d.shader->program, profile_, in, app_constants_);
        }
    }
    sw->processed = verts.size();

    // The pre-transformed vertices and the pass-through program the hardware runs.
    std::array<uint32_t, vs::kNumTexcoords> dims{};
    for (uint32_t t = 0; t < vs::kNumTexcoords; ++t)
        if (written & (vs::kOutT0 << t)) dims[t] = d.fixed_function ? ff_texcoord_dims(*d.ff_state, d.ff_inputs, t) : 4;
    const Layout l = layout_of(written, dims);
    sw->vertices.pointer = d.pointer;
    sw->vertices.bytes.reserve(size_t(l.stride) * verts.size());
    for (const vs::VertexOutputs& o : out) {
        put(sw->vertices.bytes, o.pos.data(), 4);
        if (written & vs::kOutPts) put(sw->vertices.bytes, &o.pts, 1);
        if (written & vs::kOutD0) put_color(sw->vertices.bytes, o.d0);
        if (written & (vs::kOutD1 | vs::kOutFog)) {
            vs::Vec4 spec = written & vs::kOutD1 ? o.d1 : vs::Vec4{0, 0, 0, 0};
            if (written & vs::kOutFog) spec[3] = o.fog;
            put_color(sw->vertices.bytes, spec);
        }
        for (uint32_t t = 0; t < vs::kNumTexcoords; ++t)
            if (written & (vs::kOutT0 << t)) put(sw->vertices.bytes, o.t[t].data(), dims[t]);
    }
    const vs::LoadedShader passthrough = vs::shader_from_assembly(l.program, "software vertex processing", s_.const_count);
    decl::DecoderOptions dopt;
    dopt.const_count = s_.const_count;
    sw->shader = std::make_unique<vs::CreatedShader>(vs::create_vertex_shader(l.tokens, &passthrough, dopt, profile_));
    if (!sw->shader->valid) throw std::logic_error("software vertex processing: the pass-through program is refused (a bug)");

    // The draw the hardware sees: its references index the pre-transformed vertices.
    if (d.indexed || d.generated) {
        std::map<uint32_t, uint32_t> slot;
        for (size_t i = 0; i < verts.size(); ++i) slot[verts[i]] = uint32_t(i);
        sw->indices.index_size = 4;
        sw->indices.pointer = d.pointer;
        sw->indices.bytes.resize(size_t(d.refs) * 4);
        for (uint64_t k = 0; k < d.refs; ++k) {
            const uint32_t s = slot.at(d.vertex(k));
            std::memcpy(sw->indices.bytes.data() + k * 4, &s, 4);
        }
        d.indexed = true;
        d.index_buffer = &sw->indices;
        d.index_name = "software vertex processing";
        d.generated.reset();
    }
    d.start = 0;
    d.base_vertex = 0;
    d.streams = vs::Streams{};
    d.streams[0] = {sw->vertices.bytes.data(), sw->vertices.bytes.size(), l.stride, true};
    d.shader = sw->shader.get();
    d.shader_name = fmt::format("{}: software vertex processing ({}; pass-through on the vertex engine)",
                                current_name_, sw->processed_by);
    d.fixed_function = false;
    d.ff_program.reset();
    d.constant_writes.clear();
    d.software = std::move(sw);
}

}  // namespace vpsim::scene

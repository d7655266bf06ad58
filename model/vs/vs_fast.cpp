// The fast functional path (vs_fast.h; design and the bit-identity argument in docs/fast-path.md):
// its API. The jobs are in their own files: the compiler (vs_fast_compile), the arithmetic kernels
// (vs_fast_kernels), the output stores (vs_fast_outputs), the fused fetch (vs_fast_fetch) and the
// batch loop (vs_fast_driver).
#include "model/vs/vs_fast.h"
#include "model/common/float_bits.h"
#include "model/vs/vs_fast_compile.h"
#include "model/vs/vs_fast_driver.h"
#include "model/vs/vs_fast_outputs.h"

#include <fmt/format.h>

#if defined(__SSE2__)
#include <emmintrin.h>  // _mm_sfence
#endif

namespace vpsim::vs {

using namespace fast;
using Opnd = FastShader::Opnd;
using MicroOp = FastShader::MicroOp;
using Uniform = FastShader::Uniform;

// ========================================================================================= API

FastIsa fast_isa() { return isa_setting().load(); }
bool set_fast_isa(FastIsa isa) {
    if (isa == FastIsa::Avx2 && !cpu_has_avx2()) return false;
    isa_setting().store(isa);
    return true;
}
const char* fast_isa_name(FastIsa isa) { return isa == FastIsa::Avx2 ? "avx2" : "baseline (sse2)"; }

const char* fast_out_name(unsigned reg) {
    static const char* const names[kNumFastOutRegs] = {"oPos", "oD0", "oD1", "oT0", "oT1", "oT2", "oT3",
                                                        "oT4",  "oT5", "oT6", "oT7", "oFog", "oPts"};
    return reg < kNumFastOutRegs ? names[reg] : "?";
}

FastShader compile_fast(const Program& program, const Profile& profile) { return fast::compile(program, profile); }

std::string describe(const FastShader& fs) {
    static const char* const names[] = {"add", "sub", "mul", "mad", "min", "max", "slt", "sge", "dp3", "dp4",
                                        "move", "rcp", "rsq", "exp", "log", "frc", "expp", "logp", "lit.y", "lit.z",
                                        "sat", "a0", "a0=0", "gather", "matvec3", "matvec4"};
    const auto opnd = [&](const Opnd& o) -> std::string {
        if (o.kind == FastShader::OPND_SLOT) return fmt::format("s{}", o.index);
        if (o.kind == FastShader::OPND_NEG) return fmt::format("-s{}", o.index);
        const Uniform& u = fs.uniforms[o.index];
        if (u.immediate) return fmt::format("{}", bits_float(u.bits));
        return fmt::format("{}c{}.{}", u.negate ? "-" : "", u.reg, "xyzw"[u.comp]);
    };
    std::string s = fmt::format("{} instructions -> {} micro-ops, {} slots, {} uniforms\n", fs.instructions,
                                fs.ops.size(), fs.num_slots, fs.uniforms.size());
    for (uint32_t r = 0; r < kNumInputs; ++r)
        for (int c = 0; c < 4; ++c)
            if (fs.input_slot[r][size_t(c)] != FastShader::kNoSlot)
                s += fmt::format("  s{} = v{}.{}\n", fs.input_slot[r][size_t(c)], r, "xyzw"[c]);
    for (const MicroOp& m : fs.ops) {
        std::string d;
        for (int k = 0; k < 4; ++k)
            if (m.dst[size_t(k)] != FastShader::kNoSlot) d += fmt::format("{}s{}", d.empty() ? "" : ",", m.dst[size_t(k)]);
        if (m.code == FastShader::A0 || m.code == FastShader::A0_ZERO) d = "a0";
        std::string a;
        const int n = code_sources(m.code);
        for (int i = 0; i < n; ++i) {
            if ((m.code == FastShader::DP3) && (i == 3 || i == 7)) continue;
            a += (i ? ", " : " ") + opnd(m.src[size_t(i)]);
        }
        if (m.code == FastShader::GATHER) a = fmt::format(" c[a0.x + {}].{}", m.reg, "xyzw"[m.comp]);
        if (m.code == FastShader::MATVEC3 || m.code == FastShader::MATVEC4) {  // one row per destination
            const unsigned k = m.code == FastShader::MATVEC4 ? 4 : 3;
            for (unsigned r = 0; r < m.comp; ++r) {
                a += r ? " |" : " x";
                for (unsigned i = 0; i < k; ++i) {
                    Opnd u;
                    u.kind = FastShader::OPND_UNI;
                    u.index = uint16_t(m.reg + 4 * r + i);
                    a += " " + opnd(u);
                }
            }
        }
        s += fmt::format("  {} = {}{}\n", d, names[m.code], a);
    }
    for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
        if (!(fs.outputs_written >> reg & 1u)) continue;
        s += fmt::format("  {} =", fast_out_name(reg));
        for (unsigned c = 0; c < fast_out_width(reg); ++c) s += fmt::format(" s{}", fs.output_slot[reg][c]);
        s += "\n";
    }
    return s;
}

void run_fast(const FastShader& fs, const Constants& constants, const Vec4* inputs, VertexOutputs* out, size_t n) {
    if (n == 0) return;
    Work w(fs, constants);
    const VertexOutputs def = default_outputs(fs.profile);
    run_batches(
        fs, w, n,
        [&](size_t b0, size_t m) {
            for (uint32_t r = 0; r < kNumInputs; ++r)
                for (size_t c = 0; c < 4; ++c) {
                    const uint16_t s = fs.input_slot[r][c];
                    if (s == FastShader::kNoSlot) continue;
                    float* d = w.ctx.slot(s);
                    const Vec4* in = inputs + b0 * kNumInputs + r;
                    for (size_t i = 0; i < m; ++i) d[i] = in[i * kNumInputs][c];
                }
        },
        [&](size_t b0, size_t m) { store_outputs(fs, w.ctx, def, out + b0, m); });
}

void run_fast_fetch(const FastShader& fs, const decl::Declaration& decl, const Streams& streams,
                    const Constants& constants, uint32_t first, uint32_t count, VertexOutputs* out) {
    const VertexOutputs def = default_outputs(fs.profile);
    fetch_and_shade(fs, decl, streams, constants, first, count,
                    [&](const Ctx& c, size_t b0, size_t n) { store_outputs(fs, c, def, out + b0, n); });
}

void run_fast_fetch_packed(const FastShader& fs, const decl::Declaration& decl, const Streams& streams,
                           const Constants& constants, uint32_t first, uint32_t count, float* out) {
    // A program that is one transform of one input goes through registers (fused_transform); the
    // vertices it leaves (the last < 4, those near the buffer's end or from a fetch error on) take the
    // batch loop.
    const size_t done = fused_transform(fs, decl, streams, constants, first, count, out);
    first += uint32_t(done);
    count -= uint32_t(done);
    out += done * fs.packed_stride;
#if defined(__SSE2__)
    // Non-temporal stores need every 4-float register at a 16-byte boundary: records of a multiple
    // of 4 floats (oFog/oPts come last and break it) at a 16-byte aligned `out`.
    const bool streaming = size_t(count) * fs.packed_stride * sizeof(float) >= kStreamingBytes &&
                           fs.packed_stride % 4 == 0 && reinterpret_cast<uintptr_t>(out) % 16 == 0;
    if (streaming) {
        try {
            fetch_and_shade(fs, decl, streams, constants, first, count, [&](const Ctx& c, size_t b0, size_t n) {
                store_packed<true>(fs, c, out + b0 * fs.packed_stride, n);
            });
        } catch (...) {
            _mm_sfence();
            throw;
        }
        _mm_sfence();  // the streamed records are visible in order before the call returns
        return;
    }
#endif
    fetch_and_shade(fs, decl, streams, constants, first, count, [&](const Ctx& c, size_t b0, size_t n) {
        store_packed<false>(fs, c, out + b0 * fs.packed_stride, n);
    });
}

void pack_outputs(const FastShader& fs, const VertexOutputs& v, float* out) {
    VertexOutputs copy = v;
    for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
        if (fs.packed_offset[reg] < 0) continue;
        const float* f = field(copy, reg);
        for (unsigned c = 0; c < fast_out_width(reg); ++c) out[size_t(fs.packed_offset[reg]) + c] = f[c];
    }
}

}  // namespace vpsim::vs

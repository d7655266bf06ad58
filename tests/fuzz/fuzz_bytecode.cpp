// vs.1.x bytecode (model/vs): decode + validate any DWORDs; a program that validates
// round-trips through the disassembler and the assembler to the same tokens, runs on the
// reference interpreter, and the fast path (vs_fast.h, documented bit-identical to the
// interpreter for validated programs) gives the same bits on the same vertices.
//
// Input: 1 profile byte (bit 0 a0 rounding, bit 1 scalar component, bit 2 logp replicate,
// bit 3 zero outputs, bit 4 zero-recip max, bit 5 const_count 192), then little-endian DWORDs.
#include "fuzz_util.h"

#include "model/vs/vs_asm.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fast.h"
#include "model/vs/vs_isa.h"
#include "model/vs/vs_validate.h"

#include <cmath>

using namespace vpsim;
using namespace vpsim::vs;

namespace {

bool same_instructions(const Program& a, const Program& b) {
    if (a.version != b.version || a.code.size() != b.code.size()) return false;
    for (size_t i = 0; i < a.code.size(); ++i) {
        const Instruction &x = a.code[i], &y = b.code[i];
        if (x.opcode != y.opcode || x.coissue != y.coissue || x.nsrc != y.nsrc || x.dst.type != y.dst.type ||
            x.dst.num != y.dst.num || x.dst.mask != y.dst.mask)
            return false;
        for (int s = 0; s < x.nsrc; ++s) {
            const Src &p = x.src[size_t(s)], &q = y.src[size_t(s)];
            if (p.type != q.type || p.num != q.num || p.swizzle != q.swizzle || p.negate != q.negate ||
                p.relative != q.relative)
                return false;
        }
    }
    return true;
}

float random_float(fuzz::SplitMix& r) {
    const uint64_t k = r.next();
    switch (k & 7) {
    case 0: return 0.0f;
    case 1: return 1.0f;
    case 2: return -0.5f;
    case 3: {  // any bits: NaN, infinities, denormals
        const uint32_t b = uint32_t(k >> 32);
        float f;
        std::memcpy(&f, &b, 4);
        return f;
    }
    default: return float(int64_t(k >> 40) - (1 << 23)) / 4096.0f;
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 4 * 2048 + 1) return fuzz::kReject;
    fuzz::Reader in(data, size);
    const uint8_t o = in.byte();
    const std::vector<uint32_t> tokens = in.dwords();
    Profile prof;
    if (o & 1) prof.a0 = Profile::A0Rounding::Round;
    if (o & 2) prof.scalar_component = Profile::ScalarComponent::X;
    if (o & 4) prof.logp_replicate = true;
    if (o & 8) prof.outputs = Profile::OutputDefaults::Zero;
    if (o & 16) prof.zero_recip = Profile::ZeroReciprocal::Max;
    if (o & 32) prof.const_count = 192;

    Program p;
    try {
        p = decode_bytecode(tokens);
    } catch (const BytecodeError& e) {
        FUZZ_CHECK(e.index <= tokens.size(), "error index %u of %zu tokens", e.index, tokens.size());
        FUZZ_CHECK(!e.rule.empty() && e.rule[0] == 'B', "rule '%s'", e.rule.c_str());
        return 0;
    }
    FUZZ_CHECK(p.tokens == tokens, "Program::tokens is not the input");
    const Validation v = validate(p, prof);
    bool errors = false;
    for (const Diagnostic& d : v.diagnostics) errors |= d.severity == Severity::Error;
    FUZZ_CHECK(v.valid == !errors, "valid=%d with errors=%d", v.valid, errors);
    if (!v.valid) return 0;

    // Round trip: canonical text -> tokens gives the same instructions, and the encoder's tokens.
    const std::string text = disassemble(p);
    AsmResult a;
    try {
        a = assemble(text, "disasm.vsh", prof.const_count);
    } catch (const AsmError& e) {
        FUZZ_CHECK(false, "the disassembly of a valid program does not assemble: %s\n%s", e.what(), text.c_str());
    }
    FUZZ_CHECK(same_instructions(a.program, p), "assemble(disassemble(p)) changes instructions:\n%s", text.c_str());
    FUZZ_CHECK(a.bytecode == encode_program(p), "assembled tokens differ from encode_program(p):\n%s", text.c_str());
    // Comments print from p.tokens only (and do not survive assembly): compare without them.
    Program bare = p;
    bare.tokens.clear();
    FUZZ_CHECK(disassemble(a.program) == disassemble(bare), "canonical text is not stable:\n%s", text.c_str());

    // Run: interpreter vs fast path on a few vertices.
    fuzz::SplitMix r{fuzz::hash_bytes(data, size)};
    Constants k(prof.const_count);
    for (auto& c : k)
        for (float& f : c) f = random_float(r);
    constexpr size_t n = 5;
    std::vector<Vec4> inputs(n * kNumInputs);
    for (auto& vin : inputs)
        for (float& f : vin) f = random_float(r);
    const FastShader fs = compile_fast(p, prof);
    std::vector<VertexOutputs> fast(n);
    run_fast(fs, k, inputs.data(), fast.data(), n);
    for (size_t i = 0; i < n; ++i) {
        std::array<Vec4, kNumInputs> vi;
        for (size_t rr = 0; rr < kNumInputs; ++rr) vi[rr] = inputs[i * kNumInputs + rr];
        const VertexOutputs ref = execute_reference(p, prof, vi, k);
        FUZZ_CHECK(same_bits(ref, fast[i]), "fast path differs from the interpreter on vertex %zu:\n%s", i,
                   text.c_str());
    }
    return 0;
}

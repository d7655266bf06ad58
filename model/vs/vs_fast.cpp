// The fast functional path (vs_fast.h; design and the bit-identity argument in docs/fast-path.md).
//
// compile_fast turns the instruction list into micro-operations on SSA values: every operation
// result is a new value, a register is a map from its components to values (so mov is a
// renaming, a dot product's replication costs nothing, and temps start as the uniform 0.0), the
// m-instructions become dot products, and only values that reach an output are kept (dead code
// elimination). The values are then given SoA slots by a linear scan that never lets a
// micro-operation's destination share a slot with one of its sources.
//
// Every micro-operation computes, per vertex, exactly the expression the interpreter
// (vs_interp.cpp) computes for that component, written the same way: the same operand order, one
// rounding per operation (-ffp-contract=off for the whole project), a NaN result of arithmetic
// replaced by the canonical 0x7FC00000, negation as a sign flip, the comparisons of
// min/max/slt/sge/saturate spelled identically, and ops:: for everything that is not a single
// IEEE operation or a select.
#include "model/vs/vs_fast.h"
#include "model/common/float_bits.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <cstring>
#if defined(__SSE2__)
#include <emmintrin.h>  // loads, stores and shuffles only: bits move unchanged
#endif
#include <limits>
#include <map>
#include <memory>
#include <stdexcept>
#include <tuple>

namespace vpsim::vs {

static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "the fused fetch reads vertex buffers with host loads");

using Opnd = FastShader::Opnd;
using MicroOp = FastShader::MicroOp;
using Uniform = FastShader::Uniform;

namespace {

constexpr size_t B = kFastBatch;


// ===================================================================================== compiler

// An operand during compilation: a value id (negated or not) or a uniform index.
struct VOpnd {
    FastShader::OpndKind kind = FastShader::OPND_UNI;
    int32_t index = 0;
    bool operator==(const VOpnd& o) const { return kind == o.kind && index == o.index; }
};

struct VOp {
    FastShader::Code code = FastShader::MOVE;
    std::array<int32_t, 4> dst{-1, -1, -1, -1};  // value ids
    std::array<VOpnd, 8> src{};
    int nsrc = 0;
    uint32_t reg = 0;
    uint8_t comp = 0;
    int a0_read = -1;   // GATHER: a0 version read
    int a0_write = -1;  // A0 / A0_ZERO: a0 version written
};

int code_sources(FastShader::Code c) {
    switch (c) {
        case FastShader::ADD: case FastShader::SUB: case FastShader::MUL: case FastShader::MIN:
        case FastShader::MAX: case FastShader::SLT: case FastShader::SGE: return 2;
        case FastShader::MAD: case FastShader::LIT_Z: return 3;
        case FastShader::DP3: case FastShader::DP4: return 8;  // s[0..3] and s[4..7]; DP3 uses 0..2, 4..6
        case FastShader::A0_ZERO: case FastShader::GATHER: return 0;
        default: return 1;
    }
}

class Compiler {
public:
    Compiler(const Program& p, const Profile& prof) : p_(p), prof_(prof) {
        const VOpnd zero = imm(0.0f);
        for (auto& r : temps_) r.fill(zero);
        for (auto& r : inputs_) r.fill(-1);
        for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg)
            for (int c = 0; c < 4; ++c) outs_[reg][c] = imm(output_default(reg, c));
    }

    FastShader run() {
        for (const Instruction& ins : p_.code) step(ins);
        finish_outputs();
        eliminate_dead_code();
        return allocate();
    }

private:
    const Program& p_;
    const Profile& prof_;
    std::vector<VOp> ops_;
    int32_t nvalues_ = 0;
    std::vector<Uniform> uniforms_;
    std::array<std::array<VOpnd, 4>, kNumTemps> temps_{};
    std::array<std::array<int32_t, 4>, kNumInputs> inputs_{};  // value id, -1 not yet read
    std::array<std::array<VOpnd, 4>, kNumFastOutRegs> outs_{};
    uint32_t outputs_written_ = 0;
    std::array<std::array<int32_t, 4>, kNumFastOutRegs> out_final_{};
    int a0_version_ = -1;  // -1: a0 never written (it is 0)
    int a0_versions_ = 0;
    std::map<std::tuple<int, uint32_t, uint32_t>, int32_t> gathers_;  // (a0 version, reg, comp) -> value

    float output_default(unsigned reg, int c) const {
        if (prof_.outputs != Profile::OutputDefaults::D3D8) return 0.0f;
        if (reg == FOUT_D0) return 1.0f;
        if (reg == FOUT_D1) return c == 3 ? 1.0f : 0.0f;
        return 0.0f;
    }

    [[noreturn]] void invalid(const Instruction& ins, const std::string& what) const {
        throw std::invalid_argument("compile_fast: instruction at token " + std::to_string(ins.token_index) + ": " +
                                    what + " (the program was not validated)");
    }

    int32_t new_value() { return nvalues_++; }

    VOpnd uniform(const Uniform& u) {
        for (size_t i = 0; i < uniforms_.size(); ++i) {
            const Uniform& o = uniforms_[i];
            if (o.immediate == u.immediate && o.bits == u.bits && o.reg == u.reg && o.comp == u.comp &&
                o.negate == u.negate)
                return {FastShader::OPND_UNI, int32_t(i)};
        }
        uniforms_.push_back(u);
        return {FastShader::OPND_UNI, int32_t(uniforms_.size() - 1)};
    }
    VOpnd imm(float f) {
        Uniform u;
        u.immediate = true;
        u.bits = float_bits(f);
        return uniform(u);
    }
    VOpnd negate(const VOpnd& o) {
        switch (o.kind) {
            case FastShader::OPND_SLOT: return {FastShader::OPND_NEG, o.index};
            case FastShader::OPND_NEG: return {FastShader::OPND_SLOT, o.index};
            default: {
                Uniform u = uniforms_[size_t(o.index)];
                if (u.immediate) u.bits ^= 0x80000000u;  // flip_sign, as the interpreter
                else u.negate = !u.negate;
                return uniform(u);
            }
        }
    }

    int32_t emit(VOp op) {
        ops_.push_back(op);
        return op.dst[0];
    }
    VOpnd op1(FastShader::Code code, VOpnd a) {
        VOp op;
        op.code = code;
        op.dst[0] = new_value();
        op.src[0] = a;
        op.nsrc = 1;
        return {FastShader::OPND_SLOT, emit(op)};
    }
    VOpnd op2(FastShader::Code code, VOpnd a, VOpnd b) {
        VOp op;
        op.code = code;
        op.dst[0] = new_value();
        op.src[0] = a;
        op.src[1] = b;
        op.nsrc = 2;
        return {FastShader::OPND_SLOT, emit(op)};
    }
    VOpnd op3(FastShader::Code code, VOpnd a, VOpnd b, VOpnd c) {
        VOp op;
        op.code = code;
        op.dst[0] = new_value();
        op.src[0] = a;
        op.src[1] = b;
        op.src[2] = c;
        op.nsrc = 3;
        return {FastShader::OPND_SLOT, emit(op)};
    }

    // The dot product kernels want each source's components all of one kind (slots, negated
    // slots or uniforms); a mixed source (possible after renaming) is materialised first.
    void homogenise(std::array<VOpnd, 4>& s, int n) {
        bool same = true;
        for (int i = 1; i < n; ++i) same = same && s[i].kind == s[0].kind;
        if (same) return;
        for (int i = 0; i < n; ++i)
            if (s[i].kind != FastShader::OPND_SLOT) s[i] = op1(FastShader::MOVE, s[i]);
    }
    VOpnd dot(int n, std::array<VOpnd, 4> a, std::array<VOpnd, 4> b) {
        homogenise(a, n);
        homogenise(b, n);
        VOp op;
        op.code = n == 4 ? FastShader::DP4 : FastShader::DP3;
        op.dst[0] = new_value();
        for (int i = 0; i < n; ++i) {
            op.src[i] = a[i];
            op.src[4 + i] = b[i];
        }
        if (n == 3) {  // unused by DP3; a copy of z keeps each source's operands of one kind
            op.src[3] = op.src[2];
            op.src[7] = op.src[6];
        }
        op.nsrc = 8;
        return {FastShader::OPND_SLOT, emit(op)};
    }

    // The raw component `pc` of the register a source names, `row` added to its number.
    VOpnd raw(const Instruction& ins, const Src& s, uint32_t row, uint32_t pc) {
        const uint32_t num = s.num + row;
        if (s.relative && s.type != REG_CONST) invalid(ins, "relative addressing on a non-constant source");
        switch (s.type) {
            case REG_TEMP:
                if (num >= kNumTemps) invalid(ins, "temp register out of range");
                return temps_[num][pc];
            case REG_INPUT:
                if (num >= kNumInputs) invalid(ins, "input register out of range");
                if (inputs_[num][pc] < 0) inputs_[num][pc] = new_value();
                return {FastShader::OPND_SLOT, inputs_[num][pc]};
            case REG_CONST: {
                if (!s.relative) {
                    Uniform u;
                    u.reg = num;
                    u.comp = uint8_t(pc);
                    return uniform(u);
                }
                if (a0_version_ < 0) {  // a relative read before any a0 write: a0 is 0
                    VOp z;
                    z.code = FastShader::A0_ZERO;
                    z.a0_write = a0_version_ = a0_versions_++;
                    ops_.push_back(z);
                }
                const auto key = std::make_tuple(a0_version_, num, pc);
                auto it = gathers_.find(key);
                if (it != gathers_.end()) return {FastShader::OPND_SLOT, it->second};
                VOp g;
                g.code = FastShader::GATHER;
                g.dst[0] = new_value();
                g.reg = num;
                g.comp = uint8_t(pc);
                g.a0_read = a0_version_;
                gathers_[key] = emit(g);
                return {FastShader::OPND_SLOT, g.dst[0]};
            }
            default:
                invalid(ins, "register type " + std::to_string(s.type) + " is not a source");
        }
    }
    // Source k's component i as the operation sees it: swizzled, then negated.
    VOpnd src(const Instruction& ins, int k, int i, uint32_t row = 0) {
        if (k >= ins.nsrc) invalid(ins, "missing source operand");
        const Src& s = ins.src[size_t(k)];
        const VOpnd v = raw(ins, s, row, s.component(i));
        return s.negate ? negate(v) : v;
    }
    std::array<VOpnd, 4> src4(const Instruction& ins, int k, uint32_t row = 0) {
        return {src(ins, k, 0, row), src(ins, k, 1, row), src(ins, k, 2, row), src(ins, k, 3, row)};
    }
    // The interpreter throws for an unusable source even where the result is not written.
    void check_sources(const Instruction& ins, int n) {
        for (int k = 0; k < n; ++k) (void)src(ins, k, 0);
    }

    // The register a destination names; throws as the interpreter's write() does.
    std::array<VOpnd, 4>* dst_reg(const Instruction& ins, int* out_reg) {
        const Dst& d = ins.dst;
        *out_reg = -1;
        switch (d.type) {
            case REG_TEMP:
                if (d.num >= kNumTemps) invalid(ins, "temp register out of range");
                return &temps_[d.num];
            case REG_ADDR:
                if (d.num != 0) invalid(ins, "address register other than a0");
                return nullptr;
            case REG_RASTOUT:
                if (d.num == RAST_POS) *out_reg = FOUT_POS;
                else if (d.num == RAST_FOG) *out_reg = FOUT_FOG;
                else if (d.num == RAST_PTS) *out_reg = FOUT_PTS;
                else invalid(ins, "rasteriser output out of range");
                break;
            case REG_ATTROUT:
                if (d.num == 0) *out_reg = FOUT_D0;
                else if (d.num == 1) *out_reg = FOUT_D1;
                else invalid(ins, "attribute output out of range");
                break;
            case REG_TEXCRDOUT:
                if (d.num >= kNumTexcoords) invalid(ins, "texture coordinate output out of range");
                *out_reg = int(FOUT_T0 + d.num);
                break;
            default:
                invalid(ins, "register type " + std::to_string(d.type) + " is not a destination");
        }
        return &outs_[size_t(*out_reg)];
    }

    void step(const Instruction& ins) {
        using FS = FastShader;
        if (ins.opcode == OP_NOP) return;
        const OpInfo* info = op_info(ins.opcode);
        const bool matrix = ins.opcode >= OP_M4x4 && ins.opcode <= OP_M3x2;
        if (!info || ins.opcode == 18) invalid(ins, "opcode " + std::to_string(ins.opcode) + " is not a vs.1.x operation");
        const int rows = ins.opcode == OP_M4x4 || ins.opcode == OP_M3x4 ? 4
                         : ins.opcode == OP_M4x3 || ins.opcode == OP_M3x3 ? 3
                         : ins.opcode == OP_M3x2 ? 2 : 0;
        const uint32_t computed = matrix ? (1u << rows) - 1u : 0xFu;
        // Sources first (the interpreter reads them before it looks at the destination).
        const int nsrc = matrix ? 2 : info->sources;
        check_sources(ins, nsrc);
        int out_reg = -1;
        std::array<VOpnd, 4>* reg = dst_reg(ins, &out_reg);
        const bool to_a0 = ins.dst.type == REG_ADDR;
        uint32_t want = ins.dst.mask & computed;
        if (to_a0) want &= 1u;  // only .x goes to a0
        if (want == 0) return;

        std::array<VOpnd, 4> res{};
        const auto each = [&](auto f) {
            for (int c = 0; c < 4; ++c)
                if (want >> c & 1u) res[size_t(c)] = f(c);
        };
        const auto replicate = [&](VOpnd v) { each([&](int) { return v; }); };
        const int si = prof_.scalar_component == Profile::ScalarComponent::X ? 0 : 3;
        switch (ins.opcode) {
            case OP_MOV: each([&](int c) { return src(ins, 0, c); }); break;
            case OP_ADD: each([&](int c) { return op2(FS::ADD, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_SUB: each([&](int c) { return op2(FS::SUB, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_MUL: each([&](int c) { return op2(FS::MUL, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_MIN: each([&](int c) { return op2(FS::MIN, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_MAX: each([&](int c) { return op2(FS::MAX, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_SLT: each([&](int c) { return op2(FS::SLT, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_SGE: each([&](int c) { return op2(FS::SGE, src(ins, 0, c), src(ins, 1, c)); }); break;
            case OP_MAD:
                each([&](int c) { return op3(FS::MAD, src(ins, 0, c), src(ins, 1, c), src(ins, 2, c)); });
                break;
            case OP_DP3: replicate(dot(3, src4(ins, 0), src4(ins, 1))); break;
            case OP_DP4: replicate(dot(4, src4(ins, 0), src4(ins, 1))); break;
            case OP_RCP: replicate(op1(FS::RCP, src(ins, 0, si))); break;
            case OP_RSQ: replicate(op1(FS::RSQ, src(ins, 0, si))); break;
            case OP_EXP: replicate(op1(FS::EXP, src(ins, 0, si))); break;
            case OP_LOG: replicate(op1(FS::LOG, src(ins, 0, si))); break;
            case OP_EXPP:
            case OP_LOGP: {
                VOp op;
                op.code = ins.opcode == OP_EXPP ? FS::EXPP : FS::LOGP;
                op.src[0] = src(ins, 0, si);
                op.nsrc = 1;
                for (int c = 0; c < 4; ++c)
                    if (want >> c & 1u) {
                        op.dst[size_t(c)] = new_value();
                        res[size_t(c)] = {FS::OPND_SLOT, op.dst[size_t(c)]};
                    }
                ops_.push_back(op);
                break;
            }
            case OP_LIT: {
                const VOpnd one = imm(1.0f);
                const VOpnd sx = src(ins, 0, 0), sy = src(ins, 0, 1), sw = src(ins, 0, 3);
                each([&](int c) {
                    if (c == 1) return op1(FS::LIT_Y, sx);
                    if (c == 2) return op3(FS::LIT_Z, sx, sy, sw);
                    return one;
                });
                break;
            }
            case OP_DST:
                each([&](int c) {
                    if (c == 0) return imm(1.0f);
                    if (c == 1) return op2(FS::MUL, src(ins, 0, 1), src(ins, 1, 1));
                    if (c == 2) return src(ins, 0, 2);
                    return src(ins, 1, 3);
                });
                break;
            case OP_FRC: each([&](int c) { return op1(FS::FRC, src(ins, 0, c)); }); break;
            case OP_M4x4: case OP_M4x3: case OP_M3x4: case OP_M3x3: case OP_M3x2: {
                const int n = ins.opcode == OP_M4x4 || ins.opcode == OP_M4x3 ? 4 : 3;
                const auto a = src4(ins, 0);
                each([&](int row) { return dot(n, a, src4(ins, 1, uint32_t(row))); });
                break;
            }
            default:
                invalid(ins, "opcode " + std::to_string(ins.opcode) + " is not a vs.1.x operation");
        }

        if (to_a0) {
            VOp op;
            op.code = FS::A0;
            op.src[0] = res[0];
            op.nsrc = 1;
            op.a0_write = a0_version_ = a0_versions_++;
            ops_.push_back(op);
            return;
        }
        for (int c = 0; c < 4; ++c)
            if (want >> c & 1u) (*reg)[size_t(c)] = res[size_t(c)];
        if (out_reg >= 0) outputs_written_ |= 1u << out_reg;
    }

    // The final value of each component of each written output: oD0/oD1/oFog saturated, the
    // rest materialised in a slot where it is not one already.
    void finish_outputs() {
        for (auto& r : out_final_) r.fill(-1);
        for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
            if (!(outputs_written_ >> reg & 1u)) continue;
            const bool sat = reg == FOUT_D0 || reg == FOUT_D1 || reg == FOUT_FOG;
            for (unsigned c = 0; c < fast_out_width(reg); ++c) {
                VOpnd v = outs_[reg][c];
                if (sat) v = op1(FastShader::SAT, v);
                else if (v.kind != FastShader::OPND_SLOT) v = op1(FastShader::MOVE, v);
                out_final_[reg][c] = v.index;
            }
        }
    }

    std::vector<bool> used_;  // value used by a live micro-operation or an output
    std::vector<bool> live_;  // micro-operation kept

    void eliminate_dead_code() {
        used_.assign(size_t(nvalues_), false);
        live_.assign(ops_.size(), false);
        for (const auto& r : out_final_)
            for (int32_t v : r)
                if (v >= 0) used_[size_t(v)] = true;
        std::vector<bool> a0_needed(size_t(a0_versions_), false);
        for (size_t k = ops_.size(); k-- > 0;) {
            const VOp& op = ops_[k];
            bool live = false;
            for (int32_t d : op.dst)
                if (d >= 0 && used_[size_t(d)]) live = true;
            if (op.a0_write >= 0 && a0_needed[size_t(op.a0_write)]) live = true;
            if (!live) continue;
            live_[k] = true;
            for (int i = 0; i < op.nsrc; ++i)
                if (op.src[size_t(i)].kind != FastShader::OPND_UNI) used_[size_t(op.src[size_t(i)].index)] = true;
            if (op.a0_read >= 0) a0_needed[size_t(op.a0_read)] = true;
        }
    }

    FastShader allocate() {
        FastShader fs;
        fs.profile = prof_;
        fs.instructions = p_.code.size();
        fs.outputs_written = outputs_written_;
        for (auto& r : fs.input_slot) r.fill(FastShader::kNoSlot);
        for (auto& r : fs.output_slot) r.fill(FastShader::kNoSlot);

        std::vector<int32_t> slot(size_t(nvalues_), -1);
        uint32_t nslots = 0;
        // Inputs: fixed slots, never reused (the fetch fills constant components once per call).
        for (uint32_t r = 0; r < kNumInputs; ++r)
            for (int c = 0; c < 4; ++c) {
                const int32_t v = inputs_[r][size_t(c)];
                if (v < 0 || !used_[size_t(v)]) continue;
                slot[size_t(v)] = int32_t(nslots);
                fs.input_slot[r][size_t(c)] = uint16_t(nslots++);
                fs.input_reads |= 1u << r;
            }
        const int32_t input_slots = int32_t(nslots);  // slots 0 .. input_slots-1
        // Last use of every value (outputs: never freed).
        std::vector<int64_t> last(size_t(nvalues_), -1);
        for (size_t k = 0; k < ops_.size(); ++k) {
            if (!live_[k]) continue;
            for (int i = 0; i < ops_[k].nsrc; ++i)
                if (ops_[k].src[size_t(i)].kind != FastShader::OPND_UNI)
                    last[size_t(ops_[k].src[size_t(i)].index)] = int64_t(k);
        }
        for (const auto& r : out_final_)
            for (int32_t v : r)
                if (v >= 0) last[size_t(v)] = std::numeric_limits<int64_t>::max();

        std::vector<uint16_t> free_slots;
        const auto take = [&]() -> uint16_t {
            if (!free_slots.empty()) {
                const uint16_t s = free_slots.back();
                free_slots.pop_back();
                return s;
            }
            if (nslots >= FastShader::kNoSlot) throw std::invalid_argument("compile_fast: too many slots");
            return uint16_t(nslots++);
        };
        // Only the uniforms live micro-operations read are kept (resolved at every call).
        std::vector<int32_t> uni_index(uniforms_.size(), -1);
        const auto opnd = [&](const VOpnd& v) {
            Opnd o;
            o.kind = v.kind;
            if (v.kind != FastShader::OPND_UNI) {
                o.index = uint16_t(slot[size_t(v.index)]);
                return o;
            }
            int32_t& u = uni_index[size_t(v.index)];
            if (u < 0) {
                if (fs.uniforms.size() >= FastShader::kNoSlot) throw std::invalid_argument("compile_fast: too many uniforms");
                u = int32_t(fs.uniforms.size());
                fs.uniforms.push_back(uniforms_[size_t(v.index)]);
            }
            o.index = uint16_t(u);
            return o;
        };
        for (size_t k = 0; k < ops_.size(); ++k) {
            if (!live_[k]) continue;
            const VOp& v = ops_[k];
            MicroOp m;
            m.code = v.code;
            m.reg = v.reg;
            m.comp = v.comp;
            for (int i = 0; i < v.nsrc; ++i) m.src[size_t(i)] = opnd(v.src[size_t(i)]);
            // Destinations first, then the sources whose last use this is are freed: a
            // destination never shares a slot with a source of the same micro-operation.
            for (int d = 0; d < 4; ++d) {
                const int32_t id = v.dst[size_t(d)];
                if (id < 0 || !used_[size_t(id)]) continue;
                slot[size_t(id)] = take();
                m.dst[size_t(d)] = uint16_t(slot[size_t(id)]);
            }
            for (int i = 0; i < v.nsrc; ++i) {
                const VOpnd& s = v.src[size_t(i)];
                if (s.kind == FastShader::OPND_UNI || last[size_t(s.index)] != int64_t(k)) continue;
                const int32_t sl = slot[size_t(s.index)];
                if (sl < input_slots) continue;  // inputs keep their slots
                if (std::find(free_slots.begin(), free_slots.end(), uint16_t(sl)) == free_slots.end())
                    free_slots.push_back(uint16_t(sl));
            }
            if (v.code == FastShader::A0 || v.code == FastShader::A0_ZERO || v.code == FastShader::GATHER)
                fs.uses_a0 = true;
            fs.ops.push_back(m);
        }
        fs.num_slots = nslots;

        uint32_t off = 0;
        for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
            fs.packed_offset[reg] = -1;
            if (!(outputs_written_ >> reg & 1u)) continue;
            fs.packed_offset[reg] = int16_t(off);
            off += fast_out_width(reg);
            for (unsigned c = 0; c < fast_out_width(reg); ++c)
                fs.output_slot[reg][c] = uint16_t(slot[size_t(out_final_[reg][c])]);
        }
        fs.packed_stride = off;
        return fs;
    }
};

// ===================================================================================== kernels
//
// Each kernel is a plain loop over the n vertices of a batch. Destinations never alias sources
// (the slot allocator guarantees it), hence __restrict. An operand is read through a loader of
// its kind (slot, negated slot, uniform), and every combination of kinds is its own
// instantiation, so that a uniform is a register, not a load. Everything here is always_inline:
// run_op_body is compiled once per instruction set (run_op_baseline, run_op_avx2) and every loop
// must be compiled inside it to get that set's vectors.

#define VPSIM_INLINE __attribute__((always_inline)) inline

struct LdV {
    const float* __restrict p;
    VPSIM_INLINE float operator()(size_t i) const { return p[i]; }
};
struct LdN {
    const float* __restrict p;
    VPSIM_INLINE float operator()(size_t i) const { return -p[i]; }  // a sign flip (xorps), also of 0 and NaN
};
struct LdU {
    float v;
    VPSIM_INLINE float operator()(size_t) const { return v; }
};
// A dot product source: 4 loaders of one kind.
template <class L>
struct Src4 {
    L c[4];
};

struct Ctx {
    float* slots = nullptr;  // num_slots * B
    int32_t* a0 = nullptr;   // B
    const float* uni = nullptr;
    const Constants* consts = nullptr;
    int64_t const_limit = 0;  // relative reads in 0 .. const_limit-1 hit memory
    const Profile* profile = nullptr;

    float* slot(uint16_t s) const { return static_cast<float*>(__builtin_assume_aligned(slots + size_t(s) * B, 64)); }
};

// Calls f(loader_0, ..., loader_{N-1}) for operands o[0..N-1], each loader of its operand's kind.
template <int N, class F, class... L>
VPSIM_INLINE void dispatch(const Ctx& c, const Opnd* o, const F& f, L... l) {
    if constexpr (sizeof...(L) == size_t(N)) {
        f(l...);
    } else {
        const Opnd x = o[sizeof...(L)];
        switch (x.kind) {
            case FastShader::OPND_SLOT: dispatch<N>(c, o, f, l..., LdV{c.slot(x.index)}); break;
            case FastShader::OPND_NEG: dispatch<N>(c, o, f, l..., LdN{c.slot(x.index)}); break;
            default: dispatch<N>(c, o, f, l..., LdU{c.uni[x.index]}); break;
        }
    }
}
// The same for the two 4-component sources of a dot product (o[0..3] and o[4..7]; compile_fast
// gives each source's components one kind).
template <class F, class... S>
VPSIM_INLINE void dispatch_dot(const Ctx& c, const Opnd* o, const F& f, S... s) {
    if constexpr (sizeof...(S) == 2) {
        f(s...);
    } else {
        const Opnd* x = o + 4 * sizeof...(S);
        switch (x[0].kind) {
            case FastShader::OPND_SLOT:
                dispatch_dot(c, o, f, s...,
                             Src4<LdV>{{LdV{c.slot(x[0].index)}, LdV{c.slot(x[1].index)}, LdV{c.slot(x[2].index)},
                                        LdV{c.slot(x[3].index)}}});
                break;
            case FastShader::OPND_NEG:
                dispatch_dot(c, o, f, s...,
                             Src4<LdN>{{LdN{c.slot(x[0].index)}, LdN{c.slot(x[1].index)}, LdN{c.slot(x[2].index)},
                                        LdN{c.slot(x[3].index)}}});
                break;
            default:
                dispatch_dot(c, o, f, s...,
                             Src4<LdU>{{LdU{c.uni[x[0].index]}, LdU{c.uni[x[1].index]}, LdU{c.uni[x[2].index]},
                                        LdU{c.uni[x[3].index]}}});
                break;
        }
    }
}

// NaN results of arithmetic are the canonical quiet NaN (docs/vs-semantics.md): which operand's
// payload an addss/mulss propagates depends on the operand order the compiler picks. Written as
// a compare and a select so that the loops stay vectorised (cmpunordps + blend).
VPSIM_INLINE float canon(float f) {
    const float qnan = __builtin_bit_cast(float, 0x7FC00000u);
    return f != f ? qnan : f;
}

// The per-component operations, each exactly the interpreter's expression.
struct OpAdd { static VPSIM_INLINE float f(float a, float b) { return canon(a + b); } };
struct OpSub { static VPSIM_INLINE float f(float a, float b) { return canon(a - b); } };
struct OpMul { static VPSIM_INLINE float f(float a, float b) { return canon(a * b); } };
struct OpMin { static VPSIM_INLINE float f(float a, float b) { return (a < b) ? a : b; } };
struct OpMax { static VPSIM_INLINE float f(float a, float b) { return (a >= b) ? a : b; } };
struct OpSlt { static VPSIM_INLINE float f(float a, float b) { return (a < b) ? 1.0f : 0.0f; } };
struct OpSge { static VPSIM_INLINE float f(float a, float b) { return (a >= b) ? 1.0f : 0.0f; } };
struct OpMove { VPSIM_INLINE float operator()(float a) const { return a; } };
struct OpSat {  // oD0/oD1/oFog: NaN -> +0, -0 -> +0, as the interpreter
    VPSIM_INLINE float operator()(float f) const { return f > 0.0f ? (f < 1.0f ? f : 1.0f) : 0.0f; }
};
struct OpLitY { VPSIM_INLINE float operator()(float x) const { return x > 0.0f ? x : 0.0f; } };
// Per vertex through ops:: (not vectorisable; the same function calls as the interpreter).
struct OpRcp { const Profile* p; VPSIM_INLINE float operator()(float f) const { return ops::rcp(f, *p); } };
struct OpRsq { const Profile* p; VPSIM_INLINE float operator()(float f) const { return ops::rsq(f, *p); } };
struct OpExp { VPSIM_INLINE float operator()(float f) const { return ops::exp2_full(f); } };
struct OpLog { VPSIM_INLINE float operator()(float f) const { return ops::log2_full(f); } };
struct OpFrc { VPSIM_INLINE float operator()(float f) const { return ops::frc(f); } };

template <class Op>
struct KBinary {
    float* __restrict d;
    size_t n;
    template <class A, class Bx>
    VPSIM_INLINE void operator()(A a, Bx b) const {
        for (size_t i = 0; i < n; ++i) d[i] = Op::f(a(i), b(i));
    }
};
struct KMad {
    float* __restrict d;
    size_t n;
    template <class A, class Bx, class C>
    VPSIM_INLINE void operator()(A a, Bx b, C c) const {
        for (size_t i = 0; i < n; ++i) {
            const float product = a(i) * b(i);  // rounded to float
            d[i] = canon(product + c(i));       // then the sum (not fused: -ffp-contract=off)
        }
    }
};
template <class Op>
struct KUnary {
    float* __restrict d;
    size_t n;
    Op op;
    template <class A>
    VPSIM_INLINE void operator()(A a) const {
        for (size_t i = 0; i < n; ++i) d[i] = op(a(i));
    }
};
struct KDp3 {
    float* __restrict d;
    size_t n;
    template <class A, class Bx>
    VPSIM_INLINE void operator()(Src4<A> a, Src4<Bx> b) const {
        for (size_t i = 0; i < n; ++i) {
            float sum = a.c[0](i) * b.c[0](i);  // as ops::dp3: left to right, each step rounded
            sum = sum + a.c[1](i) * b.c[1](i);
            sum = sum + a.c[2](i) * b.c[2](i);
            d[i] = canon(sum);
        }
    }
};
struct KDp4 {
    float* __restrict d;
    size_t n;
    template <class A, class Bx>
    VPSIM_INLINE void operator()(Src4<A> a, Src4<Bx> b) const {
        for (size_t i = 0; i < n; ++i) {
            float sum = a.c[0](i) * b.c[0](i);  // as ops::dp4
            sum = sum + a.c[1](i) * b.c[1](i);
            sum = sum + a.c[2](i) * b.c[2](i);
            sum = sum + a.c[3](i) * b.c[3](i);
            d[i] = canon(sum);
        }
    }
};
struct KExppLogp {
    float* ds[4];
    size_t n;
    bool expp;
    const Profile* p;
    template <class A>
    VPSIM_INLINE void operator()(A a) const {
        for (size_t i = 0; i < n; ++i) {
            const Vec4 r = expp ? ops::expp(a(i)) : ops::logp(a(i), *p);
            for (int k = 0; k < 4; ++k)
                if (ds[k]) ds[k][i] = r[size_t(k)];
        }
    }
};
struct KLitZ {
    float* __restrict d;
    size_t n;
    template <class X, class Y, class W>
    VPSIM_INLINE void operator()(X x, Y y, W w) const {
        for (size_t i = 0; i < n; ++i) d[i] = ops::lit(Vec4{x(i), y(i), 0.0f, w(i)})[2];  // lit ignores s.z
    }
};
struct KA0 {
    int32_t* a0;
    size_t n;
    const Profile* p;
    template <class A>
    VPSIM_INLINE void operator()(A a) const {
        for (size_t i = 0; i < n; ++i) a0[i] = ops::a0_from(a(i), *p);
    }
};

VPSIM_INLINE void run_op_body(const MicroOp& m, Ctx& c, size_t n) {
    using FS = FastShader;
    float* d = m.dst[0] == FS::kNoSlot ? nullptr : c.slot(m.dst[0]);
    const Profile* prof = c.profile;
    const Opnd* o = m.src.data();
    switch (m.code) {
        case FS::ADD: dispatch<2>(c, o, KBinary<OpAdd>{d, n}); break;
        case FS::SUB: dispatch<2>(c, o, KBinary<OpSub>{d, n}); break;
        case FS::MUL: dispatch<2>(c, o, KBinary<OpMul>{d, n}); break;
        case FS::MIN: dispatch<2>(c, o, KBinary<OpMin>{d, n}); break;
        case FS::MAX: dispatch<2>(c, o, KBinary<OpMax>{d, n}); break;
        case FS::SLT: dispatch<2>(c, o, KBinary<OpSlt>{d, n}); break;
        case FS::SGE: dispatch<2>(c, o, KBinary<OpSge>{d, n}); break;
        case FS::MAD: dispatch<3>(c, o, KMad{d, n}); break;
        case FS::DP3: dispatch_dot(c, o, KDp3{d, n}); break;
        case FS::DP4: dispatch_dot(c, o, KDp4{d, n}); break;
        case FS::MOVE: dispatch<1>(c, o, KUnary<OpMove>{d, n, {}}); break;
        case FS::SAT: dispatch<1>(c, o, KUnary<OpSat>{d, n, {}}); break;
        case FS::LIT_Y: dispatch<1>(c, o, KUnary<OpLitY>{d, n, {}}); break;
        case FS::RCP: dispatch<1>(c, o, KUnary<OpRcp>{d, n, {prof}}); break;
        case FS::RSQ: dispatch<1>(c, o, KUnary<OpRsq>{d, n, {prof}}); break;
        case FS::EXP: dispatch<1>(c, o, KUnary<OpExp>{d, n, {}}); break;
        case FS::LOG: dispatch<1>(c, o, KUnary<OpLog>{d, n, {}}); break;
        case FS::FRC: dispatch<1>(c, o, KUnary<OpFrc>{d, n, {}}); break;
        case FS::EXPP:
        case FS::LOGP: {
            KExppLogp k{{}, n, m.code == FS::EXPP, prof};
            for (int i = 0; i < 4; ++i) k.ds[i] = m.dst[size_t(i)] == FS::kNoSlot ? nullptr : c.slot(m.dst[size_t(i)]);
            dispatch<1>(c, o, k);
            break;
        }
        case FS::LIT_Z: dispatch<3>(c, o, KLitZ{d, n}); break;
        case FS::A0: dispatch<1>(c, o, KA0{c.a0, n, prof}); break;
        case FS::A0_ZERO:
            for (size_t i = 0; i < n; ++i) c.a0[i] = 0;
            break;
        case FS::GATHER: {
            const Vec4* k = c.consts->data();
            const int64_t limit = c.const_limit, reg = int64_t(m.reg);
            const size_t comp = m.comp;
            for (size_t i = 0; i < n; ++i) {
                const int64_t idx = int64_t(c.a0[i]) + reg;
                d[i] = (idx >= 0 && idx < limit) ? k[idx][comp] : 0.0f;
            }
            break;
        }
    }
}

// Baseline x86-64 (SSE2) and AVX2 without FMA: the same IEEE single operations in the same
// order, hence the same bits (-ffp-contract=off forbids contraction, and the avx2 target does not
// enable FMA). The AVX2 copy is chosen at run time when the CPU has it (see FastIsa).
__attribute__((flatten)) void run_op_baseline(const MicroOp& m, Ctx& c, size_t n) { run_op_body(m, c, n); }
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define VPSIM_FAST_AVX2 1
__attribute__((flatten, target("avx2"))) void run_op_avx2(const MicroOp& m, Ctx& c, size_t n) {
    run_op_body(m, c, n);
}
#endif

bool cpu_has_avx2() {
#ifdef VPSIM_FAST_AVX2
    return __builtin_cpu_supports("avx2");
#else
    return false;
#endif
}

FastIsa initial_isa() {
    const char* e = std::getenv("VPSIM_FAST_ISA");
    if (e && std::strcmp(e, "baseline") == 0) return FastIsa::Baseline;
    return cpu_has_avx2() ? FastIsa::Avx2 : FastIsa::Baseline;
}
std::atomic<FastIsa>& isa_setting() {
    static std::atomic<FastIsa> isa{initial_isa()};
    return isa;
}

using RunOp = void (*)(const MicroOp&, Ctx&, size_t);
RunOp run_op_for(FastIsa isa) {
#ifdef VPSIM_FAST_AVX2
    if (isa == FastIsa::Avx2) return run_op_avx2;
#endif
    (void)isa;
    return run_op_baseline;
}

// ================================================================================== the driver

// Working storage of one call: the SoA slots, a0, the resolved uniforms.
struct Work {
    std::unique_ptr<float[]> mem;
    std::unique_ptr<int32_t[]> a0;
    std::vector<float> uni;
    Ctx ctx;
    RunOp run_op = run_op_for(isa_setting().load(std::memory_order_relaxed));  // the kernels of this call

    Work(const FastShader& fs, const Constants& constants) {
        mem.reset(new float[size_t(fs.num_slots) * B + 16]);
        float* base = mem.get();
        const uintptr_t mis = reinterpret_cast<uintptr_t>(base) & 63u;
        if (mis) base += (64u - mis) / sizeof(float);
        a0.reset(new int32_t[B]);
        uni.resize(fs.uniforms.size());
        const int64_t limit = std::min<int64_t>(fs.profile.const_count, int64_t(constants.size()));
        for (size_t i = 0; i < fs.uniforms.size(); ++i) {
            const Uniform& u = fs.uniforms[i];
            if (u.immediate) {
                uni[i] = bits_float(u.bits);
                continue;
            }
            // As the interpreter's constant(): outside 0..const_count-1 or the vector reads 0.
            float f = int64_t(u.reg) < limit ? constants[u.reg][u.comp] : 0.0f;
            if (u.negate) f = bits_float(float_bits(f) ^ 0x80000000u);
            uni[i] = f;
        }
        ctx.slots = base;
        ctx.a0 = a0.get();
        ctx.uni = uni.data();
        ctx.consts = &constants;
        ctx.const_limit = limit;
        ctx.profile = &fs.profile;
    }
    void shade(const FastShader& fs, size_t n) {
        for (const MicroOp& m : fs.ops) run_op(m, ctx, n);
    }
};

void fill(float* d, float v, size_t n) {
    for (size_t i = 0; i < n; ++i) d[i] = v;
}

// --- outputs ---

float* field(VertexOutputs& o, unsigned reg) {
    switch (reg) {
        case FOUT_POS: return o.pos.data();
        case FOUT_D0: return o.d0.data();
        case FOUT_D1: return o.d1.data();
        case FOUT_FOG: return &o.fog;
        case FOUT_PTS: return &o.pts;
        default: return o.t[reg - FOUT_T0].data();
    }
}

VertexOutputs default_outputs(const Profile& p) {
    VertexOutputs o;  // all zero
    if (p.outputs == Profile::OutputDefaults::D3D8) {
        o.d0 = {1.0f, 1.0f, 1.0f, 1.0f};  // saturate() leaves 0 and 1 unchanged
        o.d1 = {0.0f, 0.0f, 0.0f, 1.0f};
    }
    return o;
}

void store_outputs(const FastShader& fs, const Ctx& c, const VertexOutputs& def, VertexOutputs* out, size_t n) {
    for (size_t i = 0; i < n; ++i) out[i] = def;
    for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
        if (!(fs.outputs_written >> reg & 1u)) continue;
        for (unsigned k = 0; k < fast_out_width(reg); ++k) {
            const float* s = c.slot(fs.output_slot[reg][k]);
            for (size_t i = 0; i < n; ++i) field(out[i], reg)[k] = s[i];
        }
    }
}

// Outputs larger than this are written with non-temporal stores when the records allow it: they
// go to memory without being read into the cache first (no write-allocate), and do not evict the
// batch's working set. Smaller outputs stay in the cache for whoever reads them next.
constexpr size_t kStreamingBytes = size_t(4) << 20;

#if defined(__SSE2__)
template <bool Streaming>
VPSIM_INLINE void store4(float* p, __m128 v) {
    if constexpr (Streaming) _mm_stream_ps(p, v);
    else _mm_storeu_ps(p, v);
}
#endif

// Records of vertices [i, n): the 4-wide registers src[r] at record offsets off[r], r < nr. NR > 0
// fixes the register count at compile time (the loops unroll, the transposes stay in registers).
template <bool Streaming, int NR>
VPSIM_INLINE void store_records(float* out, size_t stride, const float* const (*src)[4], const size_t* off, size_t nr,
                                size_t n) {
    const size_t cnt = NR > 0 ? size_t(NR) : nr;
    size_t i = 0;
#if defined(__SSE2__)
    // 4 vertices at a time: each register SoA -> AoS by a 4x4 transpose, then the records written
    // one after the other (whole cache lines for the non-temporal stores).
    for (; i + 4 <= n; i += 4) {
        __m128 t[NR > 0 ? NR : kNumFastOutRegs][4];
        for (size_t r = 0; r < cnt; ++r) {
            __m128 vx = _mm_load_ps(src[r][0] + i), vy = _mm_load_ps(src[r][1] + i),
                   vz = _mm_load_ps(src[r][2] + i), vw = _mm_load_ps(src[r][3] + i);
            _MM_TRANSPOSE4_PS(vx, vy, vz, vw);
            t[r][0] = vx;
            t[r][1] = vy;
            t[r][2] = vz;
            t[r][3] = vw;
        }
        float* rec = out + i * stride;
        for (size_t v = 0; v < 4; ++v, rec += stride)
            for (size_t r = 0; r < cnt; ++r) store4<Streaming>(rec + off[r], t[r][v]);
    }
#endif
    for (; i < n; ++i) {
        float* rec = out + i * stride;
        for (size_t r = 0; r < cnt; ++r)
            for (size_t k = 0; k < 4; ++k) rec[off[r] + k] = src[r][k][i];
    }
}

template <bool Streaming>
void store_packed(const FastShader& fs, const Ctx& c, float* out, size_t n) {
    const size_t stride = fs.packed_stride;
    // The 4-wide registers: their slots and record offsets.
    const float* src[kNumFastOutRegs][4];
    size_t off[kNumFastOutRegs];
    size_t nr = 0;
    for (unsigned reg = 0; reg < kNumFastOutRegs; ++reg) {
        if (!(fs.outputs_written >> reg & 1u) || fast_out_width(reg) != 4) continue;
        for (unsigned k = 0; k < 4; ++k) src[nr][k] = c.slot(fs.output_slot[reg][k]);
        off[nr++] = size_t(fs.packed_offset[reg]);
    }
    switch (nr) {
        case 0: break;
        case 1: store_records<Streaming, 1>(out, stride, src, off, nr, n); break;
        case 2: store_records<Streaming, 2>(out, stride, src, off, nr, n); break;
        case 3: store_records<Streaming, 3>(out, stride, src, off, nr, n); break;
        case 4: store_records<Streaming, 4>(out, stride, src, off, nr, n); break;
        default: store_records<Streaming, 0>(out, stride, src, off, nr, n); break;
    }
    for (unsigned reg = FOUT_FOG; reg <= FOUT_PTS; ++reg) {  // 1-wide (then no streaming: see below)
        if (!(fs.outputs_written >> reg & 1u)) continue;
        const float* s = c.slot(fs.output_slot[reg][0]);
        float* o = out + fs.packed_offset[reg];
        for (size_t j = 0; j < n; ++j) o[j * stride] = s[j];
    }
}

// --- the fused fetch ---

// D3DCOLOR bytes to floats, from expand_element itself (so the quotient is the same one).
const float* unorm8_table() {
    static const std::array<float, 256> table = [] {
        std::array<float, 256> t{};
        for (unsigned b = 0; b < 256; ++b) {
            const uint8_t bytes[4] = {uint8_t(b), uint8_t(b), uint8_t(b), uint8_t(b)};
            t[b] = expand_element(decl::D3DVSDT_D3DCOLOR, bytes)[0];
        }
        return t;
    }();
    return table.data();
}

struct FetchElement {
    const uint8_t* data = nullptr;  // stream base + offset
    uint32_t stride = 0;
    uint32_t type = 0;
    std::array<float*, 4> dst{};    // slots to fill per component (nullptr: not needed)
    uint64_t wide_end = 0;          // vertices below this one can be read with 16-byte loads
};

#if defined(__SSE2__)
// FLOAT2/3/4 of 4 vertices at a time: four 16-byte loads and a 4x4 transpose. Returns the
// number of vertices done (a multiple of 4, at most n).
size_t fetch_floats_wide(const uint8_t* base, size_t stride, size_t n, const std::array<float*, 4>& dst) {
    size_t i = 0;
    for (; i + 4 <= n; i += 4) {
        const uint8_t* p = base + i * stride;
        __m128 r0 = _mm_loadu_ps(reinterpret_cast<const float*>(p));
        __m128 r1 = _mm_loadu_ps(reinterpret_cast<const float*>(p + stride));
        __m128 r2 = _mm_loadu_ps(reinterpret_cast<const float*>(p + 2 * stride));
        __m128 r3 = _mm_loadu_ps(reinterpret_cast<const float*>(p + 3 * stride));
        _MM_TRANSPOSE4_PS(r0, r1, r2, r3);
        if (dst[0]) _mm_store_ps(dst[0] + i, r0);
        if (dst[1]) _mm_store_ps(dst[1] + i, r1);
        if (dst[2]) _mm_store_ps(dst[2] + i, r2);
        if (dst[3]) _mm_store_ps(dst[3] + i, r3);
    }
    return i;
}
#endif

// The element types' component sources: bytes or words in memory, or a constant.
void fetch_element(const FetchElement& e, uint64_t first, size_t n) {
    const uint8_t* base = e.data + first * e.stride;
    const size_t stride = e.stride;
    switch (e.type) {
        case decl::D3DVSDT_FLOAT1: case decl::D3DVSDT_FLOAT2: case decl::D3DVSDT_FLOAT3: case decl::D3DVSDT_FLOAT4: {
            const int nc = int(e.type) + 1;
            size_t done = 0;
#if defined(__SSE2__)
            if (nc > 1 && e.wide_end > first) {
                std::array<float*, 4> dst = e.dst;
                for (int c = nc; c < 4; ++c) dst[size_t(c)] = nullptr;  // the bytes after the element
                done = fetch_floats_wide(base, stride, size_t(std::min<uint64_t>(n, e.wide_end - first)), dst);
            }
#endif
            for (int c = 0; c < nc; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + 4 * c;
                for (size_t i = done; i < n; ++i) std::memcpy(&d[i], p + i * stride, 4);  // the bits as stored
            }
            break;
        }
        case decl::D3DVSDT_D3DCOLOR: {
            static constexpr int byte_of[4] = {2, 1, 0, 3};  // B,G,R,A in memory -> (R,G,B,A)
            const float* lut = unorm8_table();
            for (int c = 0; c < 4; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + byte_of[c];
                for (size_t i = 0; i < n; ++i) d[i] = lut[p[i * stride]];
            }
            break;
        }
        case decl::D3DVSDT_UBYTE4:
            for (int c = 0; c < 4; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + c;
                for (size_t i = 0; i < n; ++i) d[i] = float(p[i * stride]);
            }
            break;
        case decl::D3DVSDT_SHORT2: case decl::D3DVSDT_SHORT4: {
            const int nc = e.type == decl::D3DVSDT_SHORT2 ? 2 : 4;
            for (int c = 0; c < nc; ++c) {
                float* __restrict d = e.dst[size_t(c)];
                if (!d) continue;
                const uint8_t* p = base + 2 * c;
                for (size_t i = 0; i < n; ++i) {
                    int16_t s;
                    std::memcpy(&s, p + i * stride, 2);
                    d[i] = float(s);
                }
            }
            break;
        }
        default: break;
    }
}

// How the declaration fills each input register: the last Element or Tess event for it wins
// (as fetch_vertex), no event = (0,0,0,0).
struct FetchPlan {
    std::vector<FetchElement> elements;
    std::vector<std::pair<float*, float>> constants;  // slots filled once per call
    uint64_t valid_end = 0;   // vertices first .. valid_end-1 can be fetched
};

FetchPlan plan_fetch(const FastShader& fs, const Ctx& ctx, const decl::Declaration& d, const Streams& streams,
                     uint32_t first, uint32_t count) {
    FetchPlan plan;
    // Every element event is checked, read by the shader or not, as fetch_vertex does.
    uint64_t end = uint64_t(first) + count;
    std::array<const decl::Event*, kNumInputs> last{};
    for (const decl::Event& e : d.events) {
        if (e.reg >= kNumInputs) continue;
        if (e.kind == decl::EventKind::Tess) {
            last[e.reg] = &e;
            continue;
        }
        if (e.kind != decl::EventKind::Element) continue;
        last[e.reg] = &e;
        if (e.code >= decl::kNumDataTypes) {  // expand_element rejects it: fetch_vertex throws
            end = first;
            continue;
        }
        const StreamBinding& b = streams[e.stream];
        const uint64_t size = decl::data_type_size(e.code);
        uint64_t ok;  // vertices 0 .. ok-1 of this element lie in the buffer
        if (!b.bound || uint64_t(e.value) + size > b.size) ok = 0;
        else if (b.stride == 0) ok = std::numeric_limits<uint64_t>::max();
        else ok = (b.size - e.value - size) / b.stride + 1;
        end = std::min(end, std::max<uint64_t>(ok, first));
    }
    plan.valid_end = end;
    static constexpr float kDefault[8][4] = {
        {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 1}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 0}, {0, 0, 0, 1}, {0, 0, 0, 0}};
    static constexpr int kComponents[8] = {1, 2, 3, 4, 4, 4, 2, 4};
    for (uint32_t r = 0; r < kNumInputs; ++r) {
        if (!(fs.input_reads >> r & 1u)) continue;
        const decl::Event* e = last[r];
        const bool memory = e && e->kind == decl::EventKind::Element && e->code < decl::kNumDataTypes;
        if (memory && (!streams[e->stream].bound || !streams[e->stream].data)) continue;  // nothing is fetched
        FetchElement fe;
        if (memory) {
            const StreamBinding& b = streams[e->stream];
            fe.data = b.data + e->value;
            fe.stride = b.stride;
            fe.type = e->code;
            // 16 bytes from the element's start stay inside the buffer for vertices below wide_end.
            if (uint64_t(e->value) + 16 > b.size) fe.wide_end = 0;
            else if (b.stride == 0) fe.wide_end = std::numeric_limits<uint64_t>::max();
            else fe.wide_end = (b.size - e->value - 16) / b.stride + 1;
        }
        bool any = false;
        for (int c = 0; c < 4; ++c) {
            const uint16_t s = fs.input_slot[r][size_t(c)];
            if (s == FastShader::kNoSlot) continue;
            if (memory && c < kComponents[e->code]) {
                fe.dst[size_t(c)] = ctx.slot(s);
                any = true;
            } else {
                plan.constants.emplace_back(ctx.slot(s), memory ? kDefault[e->code][c] : 0.0f);
            }
        }
        if (any) plan.elements.push_back(fe);
    }
    return plan;
}

// Shades vertices [0, count) of a source: fetch(b0, n) fills the input slots, store(b0, n) writes.
template <class Fetch, class Store>
void run_batches(const FastShader& fs, Work& w, size_t count, Fetch&& fetch, Store&& store) {
    for (size_t b0 = 0; b0 < count; b0 += B) {
        const size_t n = std::min(B, count - b0);
        fetch(b0, n);
        w.shade(fs, n);
        store(b0, n);
    }
}

template <class Store>
void fetch_and_shade(const FastShader& fs, const decl::Declaration& d, const Streams& streams,
                     const Constants& constants, uint32_t first, uint32_t count, Store&& store) {
    if (count == 0) return;
    Work w(fs, constants);
    const FetchPlan plan = plan_fetch(fs, w.ctx, d, streams, first, count);
    for (const auto& [slot, v] : plan.constants) fill(slot, v, B);
    const size_t valid = size_t(plan.valid_end - first);
    run_batches(
        fs, w, valid,
        [&](size_t b0, size_t n) {
            for (const FetchElement& e : plan.elements) fetch_element(e, uint64_t(first) + b0, n);
        },
        [&](size_t b0, size_t n) { store(w.ctx, b0, n); });
    if (valid < count) {
        (void)fetch_vertex(d, streams, uint32_t(first + valid));  // throws the FetchError for it
        throw FetchError(0, int64_t(first) + int64_t(valid), "cannot be fetched");  // not reached
    }
}

}  // namespace

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

FastShader compile_fast(const Program& program, const Profile& profile) { return Compiler(program, profile).run(); }

std::string describe(const FastShader& fs) {
    static const char* const names[] = {"add", "sub", "mul", "mad", "min", "max", "slt", "sge", "dp3", "dp4",
                                        "move", "rcp", "rsq", "exp", "log", "frc", "expp", "logp", "lit.y", "lit.z",
                                        "sat", "a0", "a0=0", "gather"};
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

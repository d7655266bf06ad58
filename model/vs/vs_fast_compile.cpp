// The compiler of the fast functional path (vs_fast_compile.h; design and the bit-identity argument in
// docs/fast-path.md).
//
// compile_fast turns the instruction list into micro-operations on SSA values: every operation
// result is a new value, a register is a map from its components to values (so mov is a
// renaming, a dot product's replication costs nothing, and temps start as the uniform 0.0), the
// m-instructions become dot products, and only values that reach an output are kept (dead code
// elimination). The values are then given SoA slots by a linear scan that never lets a
// micro-operation's destination share a slot with one of its sources.
//
// Every micro-operation is then computed by the kernels (vs_fast_kernels.cpp) exactly as the
// interpreter computes its component.
#include "model/vs/vs_fast_compile.h"
#include "model/common/float_bits.h"

#include <algorithm>
#include <limits>
#include <map>
#include <stdexcept>
#include <tuple>

namespace vpsim::vs::fast {

using Opnd = FastShader::Opnd;
using MicroOp = FastShader::MicroOp;
using Uniform = FastShader::Uniform;

namespace {

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
    std::vector<VOpnd> rows;  // MATVEC3/4: the uniform rows, 4 per dot product (DP3: the 4th unused)
};

}  // namespace

int code_sources(FastShader::Code c) {
    switch (c) {
        case FastShader::ADD: case FastShader::SUB: case FastShader::MUL: case FastShader::MIN:
        case FastShader::MAX: case FastShader::SLT: case FastShader::SGE: return 2;
        case FastShader::MAD: case FastShader::LIT_Z: return 3;
        case FastShader::DP3: case FastShader::DP4: return 8;  // s[0..3] and s[4..7]; DP3 uses 0..2, 4..6
        case FastShader::MATVEC3: return 3;                       // s[0..2]; the rows are uniforms
        case FastShader::MATVEC4: return 4;
        case FastShader::A0_ZERO: case FastShader::GATHER: return 0;
        default: return 1;
    }
}

namespace {

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
        fuse_dot_products();
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

    // Dot products of one source with uniform rows (m4x4, m3x3, ... with constant matrices, and
    // such dp3/dp4 written out) become one MATVEC micro-operation of up to 4 rows: the source is
    // read once per vertex instead of once per row. Each row's sum is still computed as the
    // DP3/DP4 kernel computes it (same operands, same order, canonical NaN), so the bits do not
    // change. Moving a later dot product up to the first one's place is valid: its sources are
    // the first one's source (already computed there) and uniforms, and values are SSA.
    static bool uniform_rows(const VOp& op) {
        const int k = op.code == FastShader::DP4 ? 4 : 3;
        for (int i = 0; i < k; ++i)
            if (op.src[size_t(4 + i)].kind != FastShader::OPND_UNI || op.src[size_t(i)].kind == FastShader::OPND_UNI)
                return false;
        return true;
    }
    static bool same_source(const VOp& a, const VOp& b) {
        const int k = a.code == FastShader::DP4 ? 4 : 3;
        for (int i = 0; i < k; ++i)
            if (!(a.src[size_t(i)] == b.src[size_t(i)])) return false;
        return true;
    }
    void fuse_dot_products() {
        for (size_t k = 0; k < ops_.size(); ++k) {
            VOp& op = ops_[k];
            if (!live_[k] || (op.code != FastShader::DP3 && op.code != FastShader::DP4) || !uniform_rows(op)) continue;
            std::vector<size_t> group{k};
            for (size_t j = k + 1; j < ops_.size() && group.size() < 4; ++j) {
                const VOp& o = ops_[j];
                if (live_[j] && o.code == op.code && uniform_rows(o) && same_source(op, o)) group.push_back(j);
            }
            if (group.size() < 2) continue;
            VOp m;
            m.code = op.code == FastShader::DP4 ? FastShader::MATVEC4 : FastShader::MATVEC3;
            m.nsrc = code_sources(m.code);
            for (int i = 0; i < m.nsrc; ++i) m.src[size_t(i)] = op.src[size_t(i)];
            for (size_t r = 0; r < group.size(); ++r) {
                const VOp& g = ops_[group[r]];
                m.dst[r] = g.dst[0];
                for (int i = 0; i < 4; ++i) m.rows.push_back(g.src[size_t(4 + i)]);
                live_[group[r]] = false;
            }
            op = m;
            live_[k] = true;
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
            if (!v.rows.empty()) {  // MATVEC: its rows' uniforms contiguous from m.reg
                if (fs.uniforms.size() + v.rows.size() >= FastShader::kNoSlot)
                    throw std::invalid_argument("compile_fast: too many uniforms");
                m.reg = uint32_t(fs.uniforms.size());
                m.comp = uint8_t(v.rows.size() / 4);
                for (const VOpnd& u : v.rows) fs.uniforms.push_back(uniforms_[size_t(u.index)]);
            }
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

}  // namespace

FastShader compile(const Program& program, const Profile& profile) { return Compiler(program, profile).run(); }

}  // namespace vpsim::vs::fast

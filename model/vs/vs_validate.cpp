// CreateVertexShader validation (docs/spec/vs-isa.md, "Validation"; ids in vs_validate.h).
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <map>

namespace vpsim::vs {

namespace {

// Channels (before the swizzle) that source `s` contributes to.
uint32_t channels_read(const Instruction& ins, int s, const Profile& profile) {
    const uint32_t mask = ins.dst.mask;
    switch (ins.opcode) {
    case OP_MOV: return ins.dst.type == REG_ADDR ? 0x1u : mask;
    case OP_ADD: case OP_SUB: case OP_MAD: case OP_MUL: case OP_MIN: case OP_MAX: case OP_SLT: case OP_SGE:
    case OP_FRC: return mask;
    case OP_DP3: return 0x7u;
    case OP_DP4: return 0xFu;
    case OP_RCP: case OP_RSQ: case OP_EXP: case OP_LOG: case OP_EXPP: case OP_LOGP:
        return profile.scalar_component == Profile::ScalarComponent::W ? 0x8u : 0x1u;
    case OP_LIT: return 0x1u | 0x2u | 0x8u;
    case OP_DST: return s == 0 ? (0x2u | 0x4u) : (0x2u | 0x8u);
    case OP_M4x4: case OP_M4x3: return 0xFu;
    case OP_M3x4: case OP_M3x3: case OP_M3x2: return 0x7u;
    default: return 0;
    }
}
const char* reg_prefix(RegType t) {
    switch (t) {
    case REG_TEMP: return "r";
    case REG_INPUT: return "v";
    case REG_CONST: return "c";
    case REG_ADDR: return "a";
    case REG_RASTOUT: return "rast";
    case REG_ATTROUT: return "oD";
    case REG_TEXCRDOUT: return "oT";
    }
    return "?";
}
// (Made for every operand whether a message needs it or not: a concatenation that fits the
// string's own buffer, where fmt::format cost a recorded frame's shader creations a fifth of theirs.)
std::string reg_name(RegType t, uint32_t n) {
    if (t == REG_RASTOUT && n <= 2) return n == 0 ? "oPos" : n == 1 ? "oFog" : "oPts";
    return reg_prefix(t) + std::to_string(n);
}
std::string mask_name(uint32_t m) {
    std::string s = ".";
    for (int i = 0; i < 4; ++i)
        if (m >> i & 1u) s += "xyzw"[i];
    return m ? s : ".(empty)";
}

constexpr const char* kRuleNames[][2] = {
    {"V1", "slots"},         {"V2", "register-range"}, {"V3", "register-use"},   {"V4", "read-ports"},
    {"V5", "temp-uninit"},   {"V6", "a0-uninit"},      {"V7", "a0-vs10"},        {"V8", "opos-unwritten"},
    {"V9", "write-mask"},    {"V10", "matrix-form"},   {"V11", "relative"},      {"V12", "coissue"},
    {"V13", "scalar-form"},
    // Bytecode decoding errors (docs/vs-isa.md, "Decoding").
    {"B1", "version"},       {"B2", "opcode"},         {"B3", "truncated"},      {"B4", "malformed-token"},
    {"B5", "no-end"},        {"B6", "after-end"},      {"B7", "comment"},
};

}  // namespace

const char* rule_name(const std::string& rule) {
    for (const auto& r : kRuleNames)
        if (rule == r[0]) return r[1];
    return "unknown";
}

std::string to_string(const Diagnostic& d) {
    const std::string where = d.instruction >= 0 ? fmt::format("instruction {} (token {})", d.instruction, d.token_index)
                                                 : fmt::format("token {}", d.token_index);
    return fmt::format("{} {} ({}) at {}: {}", d.severity == Severity::Error ? "error" : "warning", d.rule,
                       rule_name(d.rule), where, d.message);
}

uint32_t components_read(const Instruction& ins, int s, const Profile& profile) {
    const uint32_t ch = channels_read(ins, s, profile);
    uint32_t comps = 0;
    for (int c = 0; c < 4; ++c)
        if (ch >> c & 1u) comps |= 1u << ins.src[size_t(s)].component(c);
    return comps;
}

namespace {

// One pass over a program's instructions in order: what each reads and writes is checked against
// the rules (V1..V13) and what was written before it.
class Validator {
public:
    Validator(const Program& p, const Profile& profile) : p_(p), profile_(profile), vs10_(!p.is_11()) {
        // Components of each temp some instruction writes (for "never written" in V5 messages).
        for (const Instruction& ins : p.code)
            if (ins.dst.type == REG_TEMP && ins.dst.num < kNumTemps)
                ever_written_[ins.dst.num] |= ins.dst.mask & natural_mask(ins.opcode);
    }

    Validation run() {
        for (n_ = 0; n_ < p_.code.size(); ++n_) instruction(p_.code[n_]);
        if (opos_ != 0xF) {
            const uint32_t end = p_.tokens.empty() ? 0 : uint32_t(p_.tokens.size() - 1);
            v_.diagnostics.push_back({Severity::Error, "V8", -1, end,
                                      fmt::format("oPos must be written in all four components (written: {})",
                                                  opos_ ? mask_name(opos_) : "none")});
        }
        v_.valid = true;
        for (const auto& d : v_.diagnostics)
            if (d.severity == Severity::Error) v_.valid = false;
        return std::move(v_);
    }

private:
    const Program& p_;
    const Profile& profile_;
    const bool vs10_;
    Validation v_;
    size_t n_ = 0;                     // the instruction being checked
    const Instruction* ins_ = nullptr;
    std::array<uint32_t, kNumTemps> written_{}, ever_written_{};
    bool a0_written_ = false, slots_reported_ = false;
    uint32_t opos_ = 0;

    void error(const char* rule, std::string msg) {
        v_.diagnostics.push_back({Severity::Error, rule, int(n_), ins_->token_index, std::move(msg)});
    }
    void warn(const char* rule, std::string msg) {
        v_.diagnostics.push_back({Severity::Warning, rule, int(n_), ins_->token_index, std::move(msg)});
    }

    void instruction(const Instruction& ins) {
        ins_ = &ins;
        const OpInfo* op = op_info(ins.opcode);
        if (!op) {
            error("V3", fmt::format("opcode {} is not a vs.1.x instruction", ins.opcode));
            return;
        }
        ShaderInfo& info = v_.info;
        info.slots += profile_.slots(ins.opcode);
        if (uint32_t(info.slots) > profile_.max_slots && !slots_reported_) {
            error("V1", fmt::format("the program needs more than {} instruction slots ({} at {})", profile_.max_slots,
                                    info.slots, op->name));
            slots_reported_ = true;
        }
        if (ins.coissue && !profile_.coissue_allowed)
            error("V12", "the COISSUE bit is reserved in vertex shaders (d3d8 profile)");
        sources(ins, *op);
        if (is_scalar_op(ins.opcode)) scalar_form(ins, *op);
        if (op->has_dst && destination(ins, *op)) record_write(ins);
    }

    // One register a source reads (row r of a matrix source): V5 for temps, what the program reads.
    void read(const Instruction& ins, const OpInfo& op, const Src& src, int s, int r,
              std::map<uint32_t, int>& consts, std::map<uint32_t, int>& inputs) {
        ShaderInfo& info = v_.info;
        const uint32_t comps = components_read(ins, s, profile_);
        const uint32_t reg = src.num + uint32_t(r);
        if (src.type == REG_TEMP && (comps & ~written_[reg])) {
            const uint32_t missing = comps & ~written_[reg];
            const std::string what =
                ever_written_[reg] == 0
                    ? fmt::format("{} reads r{}{}, and the shader never writes r{}", op.name, reg, mask_name(missing), reg)
                    : fmt::format("{} reads r{}{} before it is written", op.name, reg, mask_name(missing));
            if (profile_.strict_temps)
                error("V5", what + " (temps=strict, as in D3D9)");
            else
                warn("V5", what + ": it reads the start value 0; D3D8 accepts it, D3D9 and the profile option "
                                  "temps=strict reject it");
        }
        if (src.type == REG_CONST) {
            if (!src.relative) info.const_reads.insert(reg);
            if (r == 0) consts[src.relative ? (reg | 0x80000000u) : reg]++;
        }
        if (src.type == REG_INPUT) {
            info.input_reads |= 1u << reg;
            if (r == 0) inputs[reg]++;
        }
    }

    void sources(const Instruction& ins, const OpInfo& op) {
        const bool matrix = is_matrix_op(ins.opcode);
        std::map<uint32_t, int> consts, inputs;  // distinct registers read (relative: key | 0x80000000)
        for (int s = 0; s < ins.nsrc; ++s) {
            const Src& src = ins.src[size_t(s)];
            const std::string name = src.relative ? fmt::format("c[a0.x + {}]", src.num) : reg_name(src.type, src.num);
            const int nrows = matrix && s == 1 ? op.matrix_rows : 1;
            if (src.type != REG_TEMP && src.type != REG_INPUT && src.type != REG_CONST) {
                error("V3", fmt::format("{} cannot be read by an instruction (sources are r#, v# and c#)",
                                        src.type == REG_ADDR ? "a0" : name));
                continue;
            }
            const uint32_t limit =
                src.type == REG_TEMP ? kNumTemps : src.type == REG_INPUT ? kNumInputs : profile_.const_count;
            if (src.num + uint32_t(nrows) > limit) {
                error("V2", nrows > 1 ? fmt::format("{} reads rows {}..{}; the register file has {} registers", op.name,
                                                    name, src.num + uint32_t(nrows) - 1, limit)
                                      : fmt::format("{} is out of range (0..{})", name, limit - 1));
                continue;
            }
            if (src.relative) {
                if (src.type != REG_CONST) error("V11", fmt::format("relative addressing on {}: only constants c[a0.x + n]", name));
                if (vs10_) error("V7", "relative addressing c[a0.x + n] does not exist in vs.1.0");
                else if (!a0_written_) error("V6", fmt::format("{} reads a0.x before it is written (mov a0.x, ...)", name));
                v_.info.relative = true;
            }
            if (matrix && src.swizzle != kSwizzleIdentity)
                error("V10", fmt::format("{} takes no source swizzle (source {})", op.name, s));
            for (int r = 0; r < nrows; ++r) {
                if (matrix && s == 1 && !(ins.dst.mask >> r & 1u)) continue;  // row not computed
                read(ins, op, src, s, r, consts, inputs);
            }
        }
        if (consts.size() > 1) error("V4", fmt::format("{} reads {} different constant registers; at most one", op.name, consts.size()));
        if (inputs.size() > 1) error("V4", fmt::format("{} reads {} different input registers; at most one", op.name, inputs.size()));
    }

    // V13: a scalar instruction's mask and swizzle in DX9's normal form.
    void scalar_form(const Instruction& ins, const OpInfo& op) {
        const Src& src = ins.src[0];
        const bool replicate = src.swizzle == 0x00 || src.swizzle == 0x55 || src.swizzle == 0xAA || src.swizzle == 0xFF;
        // expp and logp write four different values: any mask is their normal form.
        const bool four_results = ins.opcode == OP_EXPP || (ins.opcode == OP_LOGP && !profile_.logp_replicate);
        const bool single = four_results || ins.dst.mask == 1 || ins.dst.mask == 2 || ins.dst.mask == 4 || ins.dst.mask == 8;
        if (!replicate || !single)
            warn("V13", fmt::format("{} with mask {} and {} swizzle: D3D8 accepts it (the result is replicated, "
                                    "the source's .{} is read); DX9 asks for one component and a replicate swizzle",
                                    op.name, mask_name(ins.dst.mask), replicate ? "a replicate" : "a non-replicate",
                                    profile_.scalar_component == Profile::ScalarComponent::W ? "w" : "x"));
    }

    // The destination register: false when it is refused (nothing is recorded as written).
    bool destination_register(const Instruction& ins, const OpInfo& op, const std::string& dname) {
        const Dst& d = ins.dst;
        switch (d.type) {
        case REG_TEMP:
            if (d.num >= kNumTemps) return error("V2", fmt::format("{} is out of range (r0..r11)", dname)), false;
            return true;
        case REG_ADDR:
            if (vs10_) return error("V7", "a0 does not exist in vs.1.0"), false;
            if (ins.opcode != OP_MOV) return error("V3", fmt::format("only mov may write a0, not {}", op.name)), false;
            if (d.num != 0) return error("V2", fmt::format("a{} does not exist (only a0)", d.num)), false;
            if (d.mask != 1) return error("V9", fmt::format("a0 takes the mask .x, not {}", mask_name(d.mask))), false;
            return true;
        case REG_RASTOUT:
            if (d.num > 2) return error("V2", fmt::format("rasteriser output {} does not exist (oPos, oFog, oPts)", d.num)), false;
            if (d.num != RAST_POS && d.mask != 1) {
                // No explicit mask (.xyzw): D3D8 accepts it (Wine's d3d8 fog_with_shader_test
                // creates `mul oFog, r0.x, c0.x` and checks that it succeeds; the DirectX SDK's
                // vertex shader masking page says the scalar oFog and oPts take no explicit mask),
                // component x leaves.
                if (d.mask == 0xFu && !profile_.strict_masks) {
                    warn("V9", fmt::format("{} without a mask: D3D8 accepts it and uses component x only (profile "
                                           "option masks=strict rejects it: D3D9 asks for .x)",
                                           dname));
                    return true;
                }
                return error("V9", fmt::format("{} is scalar: mask .x{}, not {}", dname,
                                               profile_.strict_masks ? "" : " or none (.xyzw)", mask_name(d.mask))),
                       false;
            }
            return true;
        case REG_ATTROUT:
            if (d.num > 1) return error("V2", fmt::format("{} is out of range (oD0, oD1)", dname)), false;
            return true;
        case REG_TEXCRDOUT:
            if (d.num >= kNumTexcoords) return error("V2", fmt::format("{} is out of range (oT0..oT7)", dname)), false;
            return true;
        default:
            error("V3", fmt::format("{} cannot be written (destinations are r#, a0 and the outputs)", dname));
            return false;
        }
    }

    // A matrix macro's mask (V9) and destination (V10): false when refused.
    bool matrix_destination(const Instruction& ins, const OpInfo& op, const std::string& dname) {
        const Dst& d = ins.dst;
        bool ok = true;
        const uint32_t want = natural_mask(ins.opcode);
        const bool allowed = d.mask == want || (ins.opcode == OP_M3x4 && d.mask == 0x7u);
        // A wider mask than the macro computes (m3x3 .xyzw): D3D8 accepts it, the extra components
        // keep their values.
        const bool wider = !allowed && (d.mask & want) == want;
        if (wider && !profile_.strict_masks) {
            warn("V9", fmt::format("{} {}{}: {} computes {} only; D3D8 accepts the wider mask and does not write {} "
                                   "(profile option masks=strict rejects it)",
                                   op.name, dname, mask_name(d.mask), op.name, mask_name(want), mask_name(d.mask & ~want)));
        } else if (!allowed) {
            error("V9", fmt::format("{} writes {}, not {}{}", op.name, mask_name(want), mask_name(d.mask),
                                    wider ? " (masks=strict)" : ""));
            ok = false;
        }
        const Src& s0 = ins.src[0];
        if (d.type == s0.type && d.num == s0.num)
            error("V10", fmt::format("{}: the destination must differ from the first source", op.name));
        return ok;
    }

    bool destination(const Instruction& ins, const OpInfo& op) {
        const Dst& d = ins.dst;
        const std::string dname = d.type == REG_ADDR ? "a0" : reg_name(d.type, d.num);
        bool ok = destination_register(ins, op, dname);
        if (d.mask == 0) {
            error("V9", "empty write mask");
            ok = false;
        }
        if (ins.opcode == OP_FRC && d.mask != 1 && d.mask != 2 && d.mask != 3) {
            error("V9", fmt::format("frc writes only .x, .y or .xy, not {}", mask_name(d.mask)));
            ok = false;
        }
        if (is_matrix_op(ins.opcode) && !matrix_destination(ins, op, dname)) ok = false;
        return ok;
    }

    void record_write(const Instruction& ins) {
        ShaderInfo& info = v_.info;
        const Dst& d = ins.dst;
        const uint32_t produced = d.mask & natural_mask(ins.opcode);  // m3x3 .xyzw writes .xyz
        if (d.type == REG_TEMP) written_[d.num] |= produced;
        if (d.type == REG_ADDR) a0_written_ = true;
        if (d.type == REG_RASTOUT) {
            if (d.num == RAST_POS) opos_ |= produced;
            info.outputs_written |= d.num == RAST_POS ? kOutPos : d.num == RAST_FOG ? kOutFog : kOutPts;
        }
        if (d.type == REG_ATTROUT) info.outputs_written |= d.num ? kOutD1 : kOutD0;
        if (d.type == REG_TEXCRDOUT) info.outputs_written |= kOutT0 << d.num;
    }
};

}  // namespace

Validation validate(const Program& p, const Profile& profile) { return Validator(p, profile).run(); }

}  // namespace vpsim::vs

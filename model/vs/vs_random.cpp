// Random valid vs.1.x programs and vertex data (see vs_random.h).
#include "model/vs/vs_random.h"

#include "model/vs/vs_validate.h"

#include <cmath>
#include <limits>
#include <optional>

namespace vpsim::vs {

const std::vector<uint32_t>& all_opcodes() {
    static const std::vector<uint32_t> ops = [] {
        std::vector<uint32_t> v;
        for (uint32_t op = 0; op <= OP_LOGP; ++op)
            if (op_info(op)) v.push_back(op);
        return v;
    }();
    return ops;
}

namespace {

int matrix_rows(uint32_t op) { return op_info(op)->matrix_rows; }

// Lanes (positions of the swizzle, x = bit 0) whose component instruction `ins` (opcode and
// destination set) reads from source `s`: validation's own rule, for both choices of the
// component a scalar op takes from a source without a replicate swizzle.
uint32_t lanes_read(const Instruction& ins, int s) {
    Instruction probe = ins;
    probe.src[size_t(s)].swizzle = kSwizzleIdentity;
    Profile x = Profile::d3d8(), w = Profile::d3d8();
    x.scalar_component = Profile::ScalarComponent::X;
    w.scalar_component = Profile::ScalarComponent::W;
    return components_read(probe, s, x) | components_read(probe, s, w);
}

uint32_t swz_comp(uint32_t swz, int lane) { return (swz >> (2 * lane)) & 3u; }
uint32_t set_comp(uint32_t swz, int lane, uint32_t c) {
    return (swz & ~(3u << (2 * lane))) | (c << (2 * lane));
}

class Generator {
public:
    Generator(SplitMix64& rng, const RandomProgramOptions& o) : rng_(rng), o_(o) {
        const_count_ = o.profile.const_count == 0 ? 1 : o.profile.const_count > 2048 ? 2048 : o.profile.const_count;
        for (uint32_t op : o.opcodes.empty() ? all_opcodes() : o.opcodes)
            if (op_info(op) && (!is_matrix_op(op) || uint32_t(matrix_rows(op)) <= const_count_)) ops_.push_back(op);
    }

    Program run() {
        const bool vs11 = o_.version == RandomProgramOptions::Version::V11 ||
                          (o_.version == RandomProgramOptions::Version::Either && !rng_.chance(0.3));
        p_.version = vs11 ? kVersion11 : kVersion10;
        int lo = o_.min_length < 1 ? 1 : o_.min_length;
        int hi = o_.max_length < lo ? lo : o_.max_length;
        if (hi > 128) hi = 128;
        if (lo > hi) lo = hi;
        const int length = rng_.range(lo, hi);
        while (int(p_.code.size()) < length) {
            if (opos_ != 0xF && int(p_.code.size()) == length - 1) break;  // the last one writes oPos
            if (!emit_random()) break;
        }
        if (opos_ != 0xF) emit_opos();
        // The bytecode and token indices, as decode_bytecode() would give them.
        p_.tokens = encode_program(p_);
        uint32_t index = 1;
        for (Instruction& ins : p_.code) {
            ins.token_index = index;
            index += 1 + (op_info(ins.opcode)->has_dst ? 1 : 0) + uint32_t(ins.nsrc);
        }
        return std::move(p_);
    }

private:
    SplitMix64& rng_;
    const RandomProgramOptions& o_;
    uint32_t const_count_;
    std::vector<uint32_t> ops_;
    Program p_;
    std::array<uint32_t, kNumTemps> written_{};  // components written per temp
    bool a0_ = false;
    uint32_t opos_ = 0;
    int slots_ = 0;

    // The registers one instruction reads (at most one distinct constant and one distinct input).
    struct Ports {
        std::optional<Src> constant;
        std::optional<uint32_t> input;
    };

    uint32_t random_mask() {
        if (rng_.chance(0.45)) return 0xF;
        if (rng_.chance(0.3)) return 1u << rng_.below(4);
        return 1 + rng_.below(14);
    }

    uint32_t random_swizzle() {
        const uint32_t k = rng_.below(20);
        if (k < 7) return kSwizzleIdentity;
        if (k < 11) return rng_.below(4) * 0x55u;  // replicate
        if (k < 14) {                               // short form: .xy = .xyyy, .xyz = .xyzz
            uint32_t s = rng_.below(256);
            const int len = rng_.range(2, 3);
            for (int i = len; i < 4; ++i) s = set_comp(s, i, swz_comp(s, len - 1));
            return s;
        }
        return rng_.below(256);
    }

    std::vector<uint32_t> temps_where(uint32_t need_comps, int exclude) const {
        std::vector<uint32_t> t;
        for (uint32_t r = 0; r < kNumTemps; ++r)
            if (int(r) != exclude && written_[r] != 0 && (written_[r] & need_comps) == need_comps) t.push_back(r);
        return t;
    }

    Src pick_constant(Ports& ports, int rows) {
        if (!ports.constant) {
            Src c;
            c.type = REG_CONST;
            c.relative = p_.is_11() && a0_ && rng_.chance(o_.relative_rate);
            const uint32_t span = const_count_ >= uint32_t(rows) ? const_count_ - uint32_t(rows) + 1 : 1;
            c.num = rng_.chance(0.5) ? rng_.below(span < 16 ? span : 16) : rng_.below(span);
            ports.constant = c;
        }
        return *ports.constant;
    }

    // A source reading valid data in every lane of `lanes`. `swizzle`: false for m-instructions.
    Src pick_source(Ports& ports, uint32_t lanes, bool swizzle, bool scalar, bool allow_const, int exclude_temp) {
        // Components the identity swizzle needs (m-instructions cannot remap lanes).
        const std::vector<uint32_t> temps = temps_where(swizzle ? 0 : lanes, exclude_temp);
        enum { Temp, Input, Const } kind;
        for (;;) {
            const uint32_t k = rng_.below(100);
            kind = k < 45 ? Temp : k < 75 ? Input : Const;
            if (kind == Temp && temps.empty()) continue;
            if (kind == Const && !allow_const) continue;
            break;
        }
        Src s;
        if (kind == Const) {
            s = pick_constant(ports, 1);
        } else if (kind == Input) {
            if (!ports.input) ports.input = rng_.below(kNumInputs);
            s.type = REG_INPUT;
            s.num = *ports.input;
        } else {
            s.type = REG_TEMP;
            s.num = temps[rng_.below(uint32_t(temps.size()))];
        }
        s.negate = rng_.chance(o_.negate_rate);
        if (!swizzle) return s;
        s.swizzle = random_swizzle();
        if (scalar && !rng_.chance(o_.scalar_non_replicate_rate)) s.swizzle = rng_.below(4) * 0x55u;
        if (s.type == REG_TEMP) {
            // Lanes that are read must name written components.
            const uint32_t w = written_[s.num];
            std::vector<uint32_t> ok;
            for (uint32_t c = 0; c < 4; ++c)
                if (w >> c & 1u) ok.push_back(c);
            const bool replicate = (s.swizzle & 3u) * 0x55u == s.swizzle;
            if (replicate && !(w >> (s.swizzle & 3u) & 1u)) s.swizzle = ok[rng_.below(uint32_t(ok.size()))] * 0x55u;
            for (int lane = 0; lane < 4; ++lane)
                if ((lanes >> lane & 1u) && !(w >> swz_comp(s.swizzle, lane) & 1u))
                    s.swizzle = set_comp(s.swizzle, lane, ok[rng_.below(uint32_t(ok.size()))]);
        }
        return s;
    }

    Dst pick_output(bool scalar_ok) {
        Dst d;
        for (;;) {
            const uint32_t k = rng_.below(100);
            if (k < 30) d.type = REG_RASTOUT, d.num = RAST_POS;
            else if (k < 50) d.type = REG_ATTROUT, d.num = rng_.below(2);
            else if (k < 85) d.type = REG_TEXCRDOUT, d.num = rng_.below(kNumTexcoords);
            else if (scalar_ok) d.type = REG_RASTOUT, d.num = rng_.chance(0.5) ? RAST_FOG : RAST_PTS;
            else continue;
            return d;
        }
    }

    void commit(Instruction ins) {
        const OpInfo* info = op_info(ins.opcode);
        ins.nsrc = info->sources;
        slots_ += o_.profile.slots(ins.opcode);
        if (info->has_dst) {
            const Dst& d = ins.dst;
            if (d.type == REG_TEMP) written_[d.num] |= d.mask;
            if (d.type == REG_ADDR) a0_ = true;
            if (d.type == REG_RASTOUT && d.num == RAST_POS) opos_ |= d.mask;
        }
        p_.code.push_back(ins);
    }

    bool emit_random() {
        const int budget = 128 - slots_ - (opos_ != 0xF ? 1 : 0);
        if (p_.is_11() && budget >= 1 && rng_.chance(o_.a0_rate)) {
            Instruction ins;
            ins.opcode = OP_MOV;
            ins.dst.type = REG_ADDR;
            ins.dst.num = 0;
            ins.dst.mask = 0x1;
            Ports ports;
            ins.src[0] = pick_source(ports, lanes_read(ins, 0), true, false, true, -1);
            commit(ins);
            return true;
        }
        std::vector<uint32_t> fit;
        for (uint32_t op : ops_)
            if (o_.profile.slots(op) <= budget) fit.push_back(op);
        if (fit.empty()) return false;
        const uint32_t op = fit[rng_.below(uint32_t(fit.size()))];
        Instruction ins;
        ins.opcode = op;
        if (op == OP_NOP) {
            commit(ins);
            return true;
        }
        const bool matrix = is_matrix_op(op);
        // Destination and mask.
        Dst& d = ins.dst;
        const bool output = rng_.chance(o_.output_rate);
        if (output) d = pick_output(!matrix);
        else d.type = REG_TEMP, d.num = rng_.below(kNumTemps);
        if (matrix) {
            d.mask = op == OP_M3x2 ? 0x3u : (op == OP_M3x3 || op == OP_M4x3) ? 0x7u : 0xFu;
            if (op == OP_M3x4 && rng_.chance(0.15)) d.mask = 0x7u;
        } else if (d.type == REG_RASTOUT && d.num != RAST_POS) {
            d.mask = 0x1u;
        } else if (op == OP_FRC) {
            d.mask = 1 + rng_.below(3);
        } else {
            d.mask = random_mask();
        }
        Ports ports;
        const OpInfo* info = op_info(op);
        if (matrix) {
            const int exclude = d.type == REG_TEMP ? int(d.num) : -1;
            ins.src[0] = pick_source(ports, lanes_read(ins, 0), false, false, false, exclude);
            Src m = pick_constant(ports, matrix_rows(op));
            m.negate = rng_.chance(o_.negate_rate / 2);
            ins.src[1] = m;
        } else {
            for (int s = 0; s < info->sources; ++s)
                ins.src[size_t(s)] = pick_source(ports, lanes_read(ins, s), true, is_scalar_op(op), true, -1);
        }
        commit(ins);
        return true;
    }

    void emit_opos() {
        Instruction ins;
        ins.opcode = OP_MOV;
        ins.dst.type = REG_RASTOUT;
        ins.dst.num = RAST_POS;
        ins.dst.mask = 0xFu & ~opos_;
        Ports ports;
        ins.src[0] = pick_source(ports, lanes_read(ins, 0), true, false, true, -1);
        commit(ins);
    }
};

}  // namespace

Program random_program(SplitMix64& rng, const RandomProgramOptions& options) { return Generator(rng, options).run(); }

Program random_program(uint64_t seed, const RandomProgramOptions& options) {
    SplitMix64 rng(seed);
    return random_program(rng, options);
}

float random_float(SplitMix64& rng, bool specials) {
    const float sign = rng.chance(0.5) ? -1.0f : 1.0f;
    const uint32_t k = rng.below(specials ? 110 : 100);
    if (k < 40) return (rng.unit() * 8.0f - 4.0f);
    if (k < 55) return float(rng.range(-4, 4));
    if (k < 65) {
        constexpr float kSmall[] = {0.0f, 0.5f, 1.0f, 2.0f, 0.25f};
        return sign * kSmall[rng.below(5)];
    }
    if (k < 85) return sign * std::ldexp(1.0f + rng.unit(), rng.range(-20, 20));
    if (k < 100) return sign * std::ldexp(1.0f + rng.unit(), rng.chance(0.5) ? rng.range(30, 120) : rng.range(-120, -30));
    // Specials.
    switch (rng.below(4)) {
    case 0: return sign * std::numeric_limits<float>::denorm_min() * float(1 + rng.below(1u << 22));
    case 1: return sign * std::numeric_limits<float>::infinity();
    case 2: return std::numeric_limits<float>::quiet_NaN();
    default: return sign * std::numeric_limits<float>::max();
    }
}

Vec4 random_vec4(SplitMix64& rng, bool specials) {
    Vec4 v;
    for (float& f : v) f = random_float(rng, specials);
    return v;
}

}  // namespace vpsim::vs

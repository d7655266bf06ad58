// vs.1.x bytecode: opcode table, encoders and the decoder (token stream -> Program).
#include "model/vs/vs_isa.h"

#include <fmt/format.h>

namespace vpsim::vs {

namespace {

// name, sources, has_dst, scalar, slots, matrix rows
constexpr OpInfo kOps[25] = {
    {"nop", 0, false, false, 1, 0},  {"mov", 1, true, false, 1, 0},  {"add", 2, true, false, 1, 0},
    {"sub", 2, true, false, 1, 0},   {"mad", 3, true, false, 1, 0},  {"mul", 2, true, false, 1, 0},
    {"rcp", 1, true, true, 1, 0},    {"rsq", 1, true, true, 1, 0},   {"dp3", 2, true, false, 1, 0},
    {"dp4", 2, true, false, 1, 0},   {"min", 2, true, false, 1, 0},  {"max", 2, true, false, 1, 0},
    {"slt", 2, true, false, 1, 0},   {"sge", 2, true, false, 1, 0},  {"exp", 1, true, true, 12, 0},
    {"log", 1, true, true, 12, 0},   {"lit", 1, true, false, 1, 0},  {"dst", 2, true, false, 1, 0},
    {nullptr, 0, false, false, 0, 0},  // 18: lrp is pixel-shader only
    {"frc", 1, true, false, 3, 0},   {"m4x4", 2, true, false, 4, 4}, {"m4x3", 2, true, false, 3, 3},
    {"m3x4", 2, true, false, 4, 4},  {"m3x3", 2, true, false, 3, 3}, {"m3x2", 2, true, false, 2, 2},
};
constexpr OpInfo kExpp{"expp", 1, true, true, 1, 0};
constexpr OpInfo kLogp{"logp", 1, true, true, 1, 0};

// Parameter-token fields.
constexpr uint32_t kParamBit = 1u << 31;
constexpr uint32_t kTypeShift = 28, kTypeMask = 7u << 28;
constexpr uint32_t kNumMask = 0x7FFu;
constexpr uint32_t kDstMaskShift = 16, kDstMaskBits = 0xFu << 16;
constexpr uint32_t kDstModBits = 0xFu << 20, kDstShiftBits = 0xFu << 24;
constexpr uint32_t kDstReserved = 0x0000F800u;  // [15:11]
constexpr uint32_t kSrcModShift = 24, kSrcModBits = 0xFu << 24;
constexpr uint32_t kSrcSwzShift = 16, kSrcSwzBits = 0xFFu << 16;
constexpr uint32_t kSrcRelBit = 1u << 13;
constexpr uint32_t kSrcReserved = 0x0000D800u;  // [15:14], [12:11]
constexpr uint32_t kInsReserved = 0x3FFF0000u;  // [29:16]: controls (0 for VS) and reserved

[[noreturn]] void fail(uint32_t index, const char* rule, const std::string& message) {
    throw BytecodeError(index, rule, message);
}

}  // namespace

BytecodeError::BytecodeError(uint32_t index_, std::string rule_, std::string message_)
    : std::runtime_error(fmt::format("token {}: {} ({})", index_, message_, rule_)),
      index(index_),
      rule(std::move(rule_)),
      message(std::move(message_)) {}

const OpInfo* op_info(uint32_t opcode) {
    if (opcode < 25) return kOps[opcode].name ? &kOps[opcode] : nullptr;
    if (opcode == OP_EXPP) return &kExpp;
    if (opcode == OP_LOGP) return &kLogp;
    return nullptr;
}

uint32_t natural_mask(uint32_t opcode) {
    switch (opcode) {
    case OP_M3x2: return 0x3u;
    case OP_M3x3: case OP_M4x3: return 0x7u;
    default: return 0xFu;
    }
}

int Profile::slots(uint32_t opcode) const {
    if (opcode == OP_EXP || opcode == OP_LOG) return exp_log_slots;
    const OpInfo* i = op_info(opcode);
    return i ? i->slots : 1;
}

const char* Profile::option_help() {
    return "a0=floor|round (mov a0.x conversion), scalar=w|x (component a scalar op reads), "
           "logp=vector|replicate, exp-log-slots=12|10, outputs=d3d8|zero (output start values), "
           "zero-recip=inf|max (rcp/rsq of 0), coissue=reject|allow, "
           "masks=d3d8|strict (m-instruction masks wider than computed: warning or error), "
           "temps=d3d8|strict (temp components read before written: warning or error)";
}

void Profile::set(const std::string& kv) {
    const size_t eq = kv.find('=');
    const std::string key = kv.substr(0, eq), value = eq == std::string::npos ? "" : kv.substr(eq + 1);
    auto bad = [&]() {
        return std::invalid_argument(
            fmt::format("profile option '{}': expected KEY=VALUE with one of: {}", kv, option_help()));
    };
    if (eq == std::string::npos) throw bad();
    if (key == "a0" && (value == "floor" || value == "round"))
        a0 = value == "floor" ? A0Rounding::Floor : A0Rounding::Round;
    else if (key == "scalar" && (value == "w" || value == "x"))
        scalar_component = value == "w" ? ScalarComponent::W : ScalarComponent::X;
    else if (key == "logp" && (value == "vector" || value == "replicate"))
        logp_replicate = value == "replicate";
    else if (key == "exp-log-slots" && (value == "12" || value == "10"))
        exp_log_slots = value == "12" ? 12 : 10;
    else if (key == "outputs" && (value == "d3d8" || value == "zero"))
        outputs = value == "d3d8" ? OutputDefaults::D3D8 : OutputDefaults::Zero;
    else if (key == "zero-recip" && (value == "inf" || value == "max"))
        zero_recip = value == "inf" ? ZeroReciprocal::Inf : ZeroReciprocal::Max;
    else if (key == "coissue" && (value == "reject" || value == "allow"))
        coissue_allowed = value == "allow";
    else if (key == "masks" && (value == "d3d8" || value == "strict"))
        strict_masks = value == "strict";
    else if (key == "temps" && (value == "d3d8" || value == "strict"))
        strict_temps = value == "strict";
    else
        throw bad();
}

uint32_t encode_instruction_token(uint32_t opcode, bool coissue) { return (opcode & 0xFFFFu) | (coissue ? kCoissueBit : 0); }

uint32_t encode_dst(const Dst& d) {
    return kParamBit | (uint32_t(d.type) << kTypeShift) | ((d.mask & 0xFu) << kDstMaskShift) | (d.num & kNumMask);
}

uint32_t encode_src(const Src& s) {
    return kParamBit | (uint32_t(s.type) << kTypeShift) | (s.negate ? 1u << kSrcModShift : 0) |
           ((s.swizzle & 0xFFu) << kSrcSwzShift) | (s.relative ? kSrcRelBit : 0) | (s.num & kNumMask);
}

std::vector<uint32_t> encode_program(const Program& p) {
    std::vector<uint32_t> t{p.version};
    for (const Instruction& ins : p.code) {
        t.push_back(encode_instruction_token(ins.opcode, ins.coissue));
        if (const OpInfo* info = op_info(ins.opcode); info && info->has_dst) t.push_back(encode_dst(ins.dst));
        for (int i = 0; i < ins.nsrc; ++i) t.push_back(encode_src(ins.src[size_t(i)]));
    }
    t.push_back(kEndToken);
    return t;
}

// Decoder rule ids (docs/vs-isa.md): B1 version, B2 unknown opcode or token, B3 truncated,
// B4 malformed parameter token, B5 missing END, B6 tokens after END, B7 comment past the end.
Program decode_bytecode(const std::vector<uint32_t>& tokens) {
    Program p;
    p.tokens = tokens;
    if (tokens.empty()) fail(0, "B1", "empty bytecode: expected the version token 0xFFFE0100 or 0xFFFE0101");
    if (tokens[0] != kVersion10 && tokens[0] != kVersion11)
        fail(0, "B1", fmt::format("version token 0x{:08X} is not vs.1.0 (0xFFFE0100) or vs.1.1 (0xFFFE0101)", tokens[0]));
    p.version = tokens[0];
    size_t i = 1;
    while (true) {
        if (i >= tokens.size()) fail(uint32_t(i), "B5", "the bytecode ends without the END token 0x0000FFFF");
        const uint32_t t = tokens[i];
        if (t == kEndToken) {
            if (i + 1 != tokens.size())
                fail(uint32_t(i + 1), "B6", fmt::format("{} token(s) after the END token", tokens.size() - i - 1));
            break;
        }
        if ((t & 0xFFFFu) == kCommentOpcode) {
            const uint32_t n = (t >> 16) & 0x7FFFu;
            if (t & kParamBit) fail(uint32_t(i), "B7", "comment token with bit 31 set");
            if (i + 1 + n > tokens.size())
                fail(uint32_t(i), "B7", fmt::format("comment of {} DWORDs runs past the end of the bytecode", n));
            i += 1 + n;
            continue;
        }
        if (t & kParamBit) fail(uint32_t(i), "B2", fmt::format("0x{:08X} is a parameter token where an instruction was expected", t));
        const uint32_t opcode = t & 0xFFFFu;
        const OpInfo* info = op_info(opcode);
        if (!info) fail(uint32_t(i), "B2", fmt::format("opcode {} is not a vs.1.x instruction", opcode));
        if (t & kInsReserved)
            fail(uint32_t(i), "B4", fmt::format("instruction token 0x{:08X} has reserved bits 29:16 set", t));
        Instruction ins;
        ins.opcode = opcode;
        ins.coissue = t & kCoissueBit;
        ins.token_index = uint32_t(i);
        ins.nsrc = info->sources;
        const size_t params = (info->has_dst ? 1 : 0) + size_t(info->sources);
        if (i + params >= tokens.size())
            fail(uint32_t(i), "B3", fmt::format("{} needs {} parameter token(s); the bytecode ends first", info->name, params));
        size_t k = i + 1;
        if (info->has_dst) {
            const uint32_t d = tokens[k];
            if (!(d & kParamBit)) fail(uint32_t(k), "B4", fmt::format("destination token 0x{:08X} lacks bit 31", d));
            if (d & (kDstReserved | kDstModBits | kDstShiftBits))
                fail(uint32_t(k), "B4",
                     fmt::format("destination token 0x{:08X}: result modifier, shift or reserved bits set (not in vs.1.x)", d));
            ins.dst.type = RegType((d & kTypeMask) >> kTypeShift);
            ins.dst.num = d & kNumMask;
            ins.dst.mask = (d & kDstMaskBits) >> kDstMaskShift;
            if (ins.dst.type > REG_TEXCRDOUT)
                fail(uint32_t(k), "B4", fmt::format("destination register type {} does not exist", unsigned(ins.dst.type)));
            ++k;
        }
        for (int s = 0; s < info->sources; ++s, ++k) {
            const uint32_t w = tokens[k];
            if (!(w & kParamBit)) fail(uint32_t(k), "B4", fmt::format("source token 0x{:08X} lacks bit 31", w));
            if (w & kSrcReserved) fail(uint32_t(k), "B4", fmt::format("source token 0x{:08X} has reserved bits set", w));
            const uint32_t mod = (w & kSrcModBits) >> kSrcModShift;
            if (mod > 1) fail(uint32_t(k), "B4", fmt::format("source modifier {} is pixel-shader only (vs.1.x: none or negate)", mod));
            Src& src = ins.src[size_t(s)];
            src.type = RegType((w & kTypeMask) >> kTypeShift);
            if (src.type > REG_TEXCRDOUT)
                fail(uint32_t(k), "B4", fmt::format("source register type {} does not exist", unsigned(src.type)));
            src.num = w & kNumMask;
            src.swizzle = (w & kSrcSwzBits) >> kSrcSwzShift;
            src.negate = mod == 1;
            src.relative = w & kSrcRelBit;
        }
        p.code.push_back(ins);
        i = k;
    }
    return p;
}

}  // namespace vpsim::vs

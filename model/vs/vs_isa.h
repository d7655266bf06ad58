// vs.1.0 / vs.1.1 bytecode: token formats, the decoded instruction list, and the profile of
// choices where sources disagree (docs/spec/vs-isa.md).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::vs {

// ---- Tokens ----
inline constexpr uint32_t kVersion10 = 0xFFFE0100u;
inline constexpr uint32_t kVersion11 = 0xFFFE0101u;
inline constexpr uint32_t kEndToken = 0x0000FFFFu;
inline constexpr uint32_t kCommentOpcode = 0xFFFEu;  // [15:0]; [30:16] = DWORD count
inline constexpr uint32_t kCoissueBit = 1u << 30;

enum Opcode : uint16_t {
    OP_NOP = 0, OP_MOV = 1, OP_ADD = 2, OP_SUB = 3, OP_MAD = 4, OP_MUL = 5, OP_RCP = 6, OP_RSQ = 7,
    OP_DP3 = 8, OP_DP4 = 9, OP_MIN = 10, OP_MAX = 11, OP_SLT = 12, OP_SGE = 13, OP_EXP = 14, OP_LOG = 15,
    OP_LIT = 16, OP_DST = 17, OP_FRC = 19, OP_M4x4 = 20, OP_M4x3 = 21, OP_M3x4 = 22, OP_M3x3 = 23,
    OP_M3x2 = 24, OP_EXPP = 78, OP_LOGP = 79,
};

enum RegType : uint8_t {
    REG_TEMP = 0,     // r0..r11
    REG_INPUT = 1,    // v0..v15
    REG_CONST = 2,    // c0..c(N-1)
    REG_ADDR = 3,     // a0 (vs.1.1)
    REG_RASTOUT = 4,  // 0 oPos, 1 oFog, 2 oPts
    REG_ATTROUT = 5,  // oD0, oD1
    REG_TEXCRDOUT = 6 // oT0..oT7
};
inline constexpr uint32_t kNumTemps = 12, kNumInputs = 16, kNumTexcoords = 8;
enum RastOut : uint8_t { RAST_POS = 0, RAST_FOG = 1, RAST_PTS = 2 };

// Static facts per opcode (nullptr name = not a vs.1.x opcode).
struct OpInfo {
    const char* name;  // "m4x4"
    int sources;       // parameter tokens after the destination
    bool has_dst;      // false only for nop
    bool scalar;       // rcp rsq exp log expp logp: one scalar source component
    int slots;         // instruction slots (exp/log: profile-dependent, see Profile)
    int matrix_rows;   // m-instructions: constant rows read (src1 .. src1+rows-1), else 0
};
const OpInfo* op_info(uint32_t opcode);
// m4x4 .. m3x2 (reads several constant rows); rcp rsq exp log expp logp (one scalar component).
inline bool is_matrix_op(uint32_t opcode) {
    const OpInfo* i = op_info(opcode);
    return i && i->matrix_rows > 0;
}
inline bool is_scalar_op(uint32_t opcode) {
    const OpInfo* i = op_info(opcode);
    return i && i->scalar;
}

// The components an operation computes (its natural write mask): m3x2 .xy, m3x3 and m4x3 .xyz,
// every other operation .xyzw. The assembler gives an m-instruction written without a mask this one.
uint32_t natural_mask(uint32_t opcode);

inline constexpr uint32_t kSwizzleIdentity = 0xE4;  // .xyzw

struct Dst {
    RegType type = REG_TEMP;
    uint32_t num = 0;
    uint32_t mask = 0xF;  // bit 0 = x ... bit 3 = w
};
struct Src {
    RegType type = REG_TEMP;
    uint32_t num = 0;
    uint32_t swizzle = kSwizzleIdentity;  // 2 bits per output component, x in bits 1:0
    bool negate = false;
    bool relative = false;  // c[a0.x + num]
    uint32_t component(int i) const { return (swizzle >> (2 * i)) & 3u; }
};
struct Instruction {
    uint32_t opcode = OP_NOP;
    bool coissue = false;
    Dst dst;
    std::array<Src, 3> src{};
    int nsrc = 0;
    uint32_t token_index = 0;  // index of the instruction token in the bytecode
};
struct Program {
    uint32_t version = kVersion11;  // the version token
    std::vector<Instruction> code;
    std::vector<uint32_t> tokens;   // the bytecode as given
    bool is_11() const { return version == kVersion11; }
};

// Malformed bytecode (truncated, unknown token, bad parameter form): token index + message.
struct BytecodeError : std::runtime_error {
    BytecodeError(uint32_t index, std::string rule, std::string message);
    uint32_t index;
    std::string rule;     // stable id, e.g. "B3"
    std::string message;
};

// Decodes the token stream; throws BytecodeError. No semantic validation (see vs_validate.h).
Program decode_bytecode(const std::vector<uint32_t>& tokens);

// Encoders.
uint32_t encode_instruction_token(uint32_t opcode, bool coissue = false);
uint32_t encode_dst(const Dst& d);
uint32_t encode_src(const Src& s);
std::vector<uint32_t> encode_program(const Program& p);  // version, instructions, END (no comments)

// ---- The profile: every point where sources disagree, with the d3d8 defaults ----
struct Profile {
    enum class A0Rounding { Floor, Round } a0 = A0Rounding::Floor;  // mov a0.x: vs.1.1 floor; DX9 mova rounds
    enum class ScalarComponent { W, X } scalar_component = ScalarComponent::W;  // scalar source without replicate swizzle
    bool logp_replicate = false;       // false: logp writes 4 components (x exp, y mantissa, z log, w 1)
    int exp_log_slots = 12;            // DX8.0 docs 12, DX9 docs 10
    enum class OutputDefaults { D3D8, Zero } outputs = OutputDefaults::D3D8;  // oD0=(1,1,1,1) oD1=(0,0,0,1) vs all 0
    enum class ZeroReciprocal { Inf, Max } zero_recip = ZeroReciprocal::Inf;  // rcp/rsq of 0: +inf or FLT_MAX
    uint32_t const_count = 96;         // device constant registers
    uint32_t max_slots = 128;          // instruction slots a program may take (vs.1.x: 128)
    bool coissue_allowed = false;      // d3d8: the COISSUE bit is reserved in vertex shaders
    // An m-instruction's mask wider than what it computes (m3x3/m4x3 .xyzw, m3x2 .xyz/.xyzw):
    // d3d8 accepts it with a warning (the extra components are not written); strict rejects it (V9).
    bool strict_masks = false;
    // A temp component read before it is written (V5): d3d8 warns (it reads the start value 0, as
    // shipped DX8.1 SDK shaders rely on); strict makes it the error it is in D3D9.
    bool strict_temps = false;

    static Profile d3d8() { return {}; }
    int slots(uint32_t opcode) const;  // slot cost of one instruction in this profile

    // Sets one option from text, e.g. "a0=round", "scalar=x", "logp=replicate",
    // "exp-log-slots=10", "outputs=zero", "zero-recip=max", "coissue=allow", "masks=strict", "temps=strict". Throws
    // std::invalid_argument naming the valid keys and values.
    void set(const std::string& key_equals_value);
    static const char* option_help();  // one line per key with its values, the default first
};

}  // namespace vpsim::vs

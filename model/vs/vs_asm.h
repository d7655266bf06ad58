// vs.1.0 / vs.1.1 assembler and disassembler (docs/spec/vs-isa.md, "Assembly syntax").
//
// Accepted text (D3DX8 style), after the C preprocessor (vs_preproc.h) when it has directives:
//   - the version line `vs.1.0` or `vs.1.1` (also `vs_1_0` / `vs_1_1`) before the first
//     instruction; blank lines and comments may precede it;
//   - one instruction per line: [+]opcode dst, src0, src1, src2 — opcodes and register names
//     case-insensitive; `+` sets the COISSUE bit (reserved in vertex shaders: validation rule V12
//     rejects it, the assembler warns);
//   - comments: `;` and `//` to the end of the line, `/* ... */` (may span lines);
//   - registers: r0..r11, v0..v15, c0..c(N-1) (N = const_count), c[a0.x + n], c[n + a0.x],
//     c[a0.x], c[n] (= cn), a0, oPos, oFog, oPts, oD0, oD1, oT0..oT7;
//   - write masks `.x .xy .xz .xyzw ...` (components in the order x, y, z, w, each at most once;
//     `rgba` letters are accepted too); no mask = .xyzw, except for the m-instructions, which get
//     the mask of what they compute (m3x2 .xy, m3x3 and m4x3 .xyz, m3x4 and m4x4 .xyzw) as the
//     D3DX assemblers give them;
//   - source swizzles of 1..4 components (`.x` = .xxxx, `.xy` = .xyyy: a short swizzle repeats its
//     last component); `-` negates a source;
//   - `def cN, x, y, z, w`: not bytecode — returned as D3DVSD_CONST(N, 1) + 4 DWORDs for the
//     declaration (DX8 behaviour). Numbers: decimal floats with an optional sign and `f` suffix.
//
// The assembler checks syntax and register ranges (including the rows an m-instruction reads);
// it does not validate (validate() in vs_validate.h does). It warns about forms the DX9 docs
// dislike but D3D8 accepts: a scalar op (rcp rsq exp log expp logp) whose source has no
// replicate swizzle, rcp/rsq/exp/log with a multi-component write mask, `+` co-issue, a def after
// the first instruction, a constant defined twice.
#pragma once

#include "model/vs/vs_isa.h"
#include "model/vs/vs_preproc.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vpsim::vs {

// Bad assembly text. what() = "file:line:column: error: message"; line and column are 1-based
// (columns count bytes; a tab is one column).
struct AsmError : std::runtime_error {
    AsmError(std::string file, int line, int column, std::string message);
    std::string file;
    int line;
    int column;
    std::string message;
};

struct AsmWarning {
    std::string file;
    int line = 0;
    int column = 0;
    std::string message;
    std::string to_string() const;  // "file:line:column: warning: message"
};

// One `def cN, x, y, z, w`.
struct ConstDef {
    uint32_t reg = 0;
    std::array<float, 4> value{};
    int line = 0;
};

// One D3D9 `dcl_usage[n] vN[.mask]` line (D3D9 vs_1_1 sources; see AsmOptions::d3d9).
struct InputDcl {
    std::string usage;      // lower case: "position", "normal", "texcoord", ... (D3DDECLUSAGE names)
    uint32_t index = 0;     // the usage index: dcl_texcoord3 -> 3
    uint32_t reg = 0;       // v#
    uint32_t mask = 0xF;    // the register's mask as written (.xyzw when none)
    int line = 0;
};

// The D3DDECLUSAGE names a dcl_ line may use, in D3DDECLUSAGE order.
const std::vector<std::string>& dcl_usages();

struct AsmOptions {
    uint32_t const_count = 96;  // constant registers c0..c(const_count-1)
    // D3D9 vs_1_1 input: `dcl_usage[n] vN` lines before the first instruction, collected in
    // AsmResult::dcls (vs_d3d9.h turns them into a D3D8 declaration). Also on without this flag
    // when the version line is spelled `vs_1_1` (D3D9's spelling) and a dcl_ line follows it;
    // otherwise a dcl_ line is an error that names the flag.
    bool d3d9 = false;
    // The C preprocessor (vs_preproc.h): run when the text has a directive or -D/-I are given.
    // Diagnostics then name the original file and line (through includes and macros); a column
    // counts in the expanded line.
    PreprocOptions preprocess;
    std::string path;  // the file the text was read from ("" for none): #include "..." is relative to it
};

struct AsmResult {
    std::vector<uint32_t> bytecode;      // version, instructions, END (0x0000FFFF)
    std::vector<uint32_t> const_tokens;  // D3DVSD_CONST(n, 1) + 4 DWORDs per def, in order, for the declaration
    std::vector<AsmWarning> warnings;    // in source order
    std::vector<ConstDef> defs;          // the defs, in order (const_tokens is their encoding)
    Program program;                     // the bytecode as decode_bytecode() would give it
    std::vector<int> instruction_lines;  // source line of each instruction of `program`
    std::vector<SourceLine> instruction_files;  // file and line of each instruction (through includes)
    std::vector<int> instruction_columns;       // 1-based column of each instruction's opcode
    std::vector<InputDcl> dcls;          // D3D9 sources: the dcl_ lines, in order
    bool d3d9 = false;                   // assembled as a D3D9 vs_1_1 source (dcl_ lines accepted)
};

inline constexpr uint32_t kDefaultConstCount = 96;

// Throws AsmError at the first error. `const_count`: constant registers c0..c(const_count-1).
AsmResult assemble(std::string_view text, std::string_view filename = "<input>",
                   uint32_t const_count = kDefaultConstCount);
AsmResult assemble(std::string_view text, std::string_view filename, const AsmOptions& options);

// Canonical text: the version line, then one instruction per line — lower-case opcodes, register
// names as above (oPos, oD0, oT3), the write mask omitted when it is .xyzw (but printed on m3x2,
// m3x3 and m4x3, whose bare form means their narrower mask), the swizzle omitted
// when it is .xyzw and otherwise printed in its shortest form that assembles back to it (.xxxx ->
// .x, .xyyy -> .xy), relative reads as `c[a0.x + n]`, `+` for co-issue.
// assemble(disassemble(p)) gives p's instructions again for every program whose registers are in
// range and whose write masks are not empty (an empty mask prints as a bare `.` that does not
// assemble); canonical text -> tokens -> text -> tokens is the identity.
// When p.tokens holds the bytecode (as decode_bytecode() leaves it), each comment token block
// prints as a line `; comment: N DWORDs` (plus its text when printable) where it stood; such
// lines are comments to the assembler, so comments do not survive a round trip.
// `defs` print as `def` lines after the version line.
std::string disassemble(const Program& p, const std::vector<ConstDef>& defs = {});

// decode_bytecode() then disassemble(); throws BytecodeError.
std::string disassemble_tokens(const std::vector<uint32_t>& tokens);

// Pieces of the canonical text.
std::string format_instruction(const Instruction& ins);  // "mad r0.xy, -v0, c[a0.x + 3].x, r1"
std::string format_dst(const Dst& d);                    // "oPos", "r0.xz", "a0.x"
std::string format_src(const Src& s);                    // "-c[a0.x + 3].wzyx"
std::string format_def(const ConstDef& d);               // "def c5, 1, 0.5, -2, 1e+20"
std::string register_name(RegType type, uint32_t num);   // "oPos", "v3", "oT7"
std::string swizzle_suffix(uint32_t swizzle);            // "" for .xyzw, ".x", ".xy", ".wzyx"
std::string mask_suffix(uint32_t mask);                  // "" for .xyzw, ".xz"

// Opcode by assembler name ("m4x4", case-insensitive); -1 if none.
int opcode_from_name(std::string_view name);

}  // namespace vpsim::vs

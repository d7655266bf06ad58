// Text forms of a D3D8 vertex shader declaration: a disassembler that prints the
// D3DVSD_* macro form, hex / C-array writers, and a parser for the macro form, raw
// DWORD lists and pasted C array initializers.
//
// The guarantee that ties both halves together, for ANY token vector t (garbage too):
//     parse_text(to_text(t)) == t          and therefore
//     to_text(parse_text(to_text(t))) == to_text(t)
// and likewise parse_text(to_c_array(t)) == t, parse_text(to_hex(t)) == t.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "model/decl/decl_tokens.h"

namespace vpsim::decl {

// ---------------------------------------------------------------------------------
// Disassembly
// ---------------------------------------------------------------------------------

// The macro form, one token per line, each line ending in a comment with the DWORD
// index and the token's hex value:
//     D3DVSD_STREAM(0),                                  // [0] 0x20000000
//     D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3),        // [1] 0x40020003
//     D3DVSD_CONST(0, 1), 0.25f, 0.5f, 1.0f, 2.0f,       // [2] 0x82000000
//     D3DVSD_END()                                       // [7] 0xFFFFFFFF
// - A CONST header with count 1 and its 4 payload floats share one line; with count
//   > 1 the header is alone and every vec4 follows on its own indented line
//   ("// [3] c[1]").
// - Payload DWORDs print as the shortest decimal float (with an `f` suffix) that
//   parses back to the same bits; NaN, infinities and denormals print as raw hex.
// - Tokens the macros cannot reproduce (reserved bits, token type 6, a type-7 token
//   other than END, NOP with bits, REG type 8..15 or register 17..31, TESSNORMAL /
//   TESSUV with a wrong type field, every EXT header) print as raw `0x%08X` with a
//   comment saying why ("// [3] raw: ..."). EXT payloads and payload DWORDs past the
//   end of the array print as raw hex too.
// - Every item but the array's last DWORD is followed by a comma.
// - The text always ends with a newline; an empty vector gives a single comment line.
std::string to_text(const std::vector<uint32_t>& tokens);

// Raw hex, `0x%08X`, 8 words per line separated by one space; ends with a newline
// (empty vector: empty string). Accepted by parse_text() and by the `.hex` loader.
std::string to_hex(const std::vector<uint32_t>& tokens);

// A compilable D3D8-style initializer (needs <d3d8.h> / d3d8types.h for the macros):
//     DWORD decl[] = {
//         D3DVSD_STREAM(0),                              // [0] 0x20000000
//         D3DVSD_CONST(0, 1),                            // [1] 0x82000000
//             0x3E800000, /* 0.25f */ 0x3F000000, /* 0.5f */ ...   // [2] c[0]
//         D3DVSD_END(),                                  // [6] 0xFFFFFFFF
//     };
// Payload floats are emitted as their hex DWORD followed by the float in a comment.
// Every item (the last too) is followed by a comma. `name` must be a C identifier
// and not one of the declaration specifiers parse_text() knows (DWORD, const, ...);
// otherwise std::invalid_argument is thrown. The result parses back with parse_text().
std::string to_c_array(const std::vector<uint32_t>& tokens, std::string_view name = "decl");

// ---------------------------------------------------------------------------------
// Parsing
// ---------------------------------------------------------------------------------

// Error in declaration text. line and column are 1-based (columns count bytes; a tab
// is one column). what() is "file:line:column: error: message".
class TextError : public std::runtime_error {
public:
    TextError(std::string file, int line, int column, std::string message);

    std::string file;
    int line;
    int column;
    std::string message;
};

// Parses declaration text into DWORDs. Accepted input, whitespace/newlines free,
// `//` and `/* */` comments anywhere:
//
// Items (one DWORD each):
//   - Macros: D3DVSD_STREAM(n) n 0..15; D3DVSD_STREAM_TESS(); D3DVSD_REG(reg, type)
//     reg 0..31, type 0..15; D3DVSD_SKIP(n) n 0..15; D3DVSD_TESSNORMAL(in, out) and
//     D3DVSD_TESSUV(reg) registers 0..15; D3DVSD_CONST(address, count) address 0..127,
//     count 0..15; D3DVSD_EXT(count, info) count 0..31, info 0..0xFFFFFF (vpsim's
//     encoder, not a d3d8types.h macro); D3DVSD_NOP(); D3DVSD_END().
//     Only field widths are checked, not declaration semantics (REG(0, 9) is fine).
//     Arguments are single integer literals (decimal or 0x hex) or names:
//     register arguments (REG's first, TESSNORMAL's, TESSUV's) accept D3DVSDE_* names,
//     REG's type accepts D3DVSDT_* names. Decision: the bare forms (NORMAL, FLOAT3)
//     are accepted too, but ONLY in those argument positions, where they cannot be
//     ambiguous (the two name sets do not overlap and are checked against the
//     argument's role: a type name as a register is an error). Nowhere else is a
//     name a value; no arithmetic.
//   - Integer literals: 0x hex (value must fit 32 bits) or decimal 0..4294967295,
//     optional u/U/l/L suffixes. A multi-digit decimal with a leading 0 (octal in C)
//     is rejected. No sign on integers.
//   - Float literals, which become their IEEE-754 single bits: a decimal point, an
//     exponent or an f/F suffix makes a number a float (`1.0f`, `0.5`, `-2e3f`,
//     `.5f`, `1f`); optional leading `-` / `+`. Rounded to float directly (no
//     double rounding); a literal outside float range is an error. Hex floats are
//     not supported.
//   - FtoDW(x) / F2DW(x): x is a (signed) float or integer literal, converted to float.
//   - (DWORD)lit, (DWORD)(lit): a cast of an integer literal (also UINT, ULONG,
//     uint32_t, unsigned). A cast of a float literal is an error (in C it converts
//     the value, not the bits). `*(DWORD*)&var` is an error (a variable cannot be
//     evaluated).
//
// Forms:
//   - Plain list: items separated by optional commas (one comma at most between two
//     items, trailing comma allowed).
//   - C array: [specifiers] name '[' [N] ']' '=' '{' items '}' [';'] where the
//     specifiers are any of const, static, constexpr, extern, CONST, DWORD, UINT, ULONG,
//     uint32_t, unsigned, long, int; or just '{' items '}' [';']. Items are separated
//     by commas (required; trailing comma allowed). Nothing but comments may follow.
//     With [N], N must be >= the item count and the array is zero-padded to N
//     DWORDs (D3DVSD_NOP), as a C compiler would. N is at most kMaxTextArrayDwords
//     (checked before anything is allocated; a larger N is an error at N).
//
// A leading UTF-8 byte order mark is skipped. Empty input (or only comments and
// whitespace) gives an empty vector. Errors throw
// TextError with the location of the offending token (end of input for a missing
// `}`, `)`, ...; the `/*` for an unterminated comment). An empty filename is
// reported as "<input>".
std::vector<uint32_t> parse_text(std::string_view text, std::string_view filename = "<input>");

// The largest C array size [N] parse_text() accepts: 16 times the default maximum declaration
// length (rule 14, 4096 DWORDs), so that a few bytes of text cannot ask for gigabytes.
inline constexpr uint32_t kMaxTextArrayDwords = 65536;

}  // namespace vpsim::decl

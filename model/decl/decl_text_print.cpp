// The disassembler of decl_text.h: to_text (the D3DVSD_* macro form), to_hex, to_c_array.
#include "model/decl/decl_text.h"
#include "model/decl/decl_text_lex.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <utility>
#include <vector>

namespace vpsim::decl {

using namespace text;

namespace {

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

// Shortest decimal text of a float (to_chars), as a C float literal ("1.0f", "1e+10f").
std::string float_spelling(float f) {
    char buf[64];
    auto r = std::to_chars(buf, buf + sizeof buf, f);
    std::string s(buf, r.ptr);
    if (s.find_first_of(".e") == std::string::npos) s += ".0";
    s += 'f';
    return s;
}

// The float literal for payload bits, if it reparses to exactly the same bits.
// NaN, infinities and denormals: nullopt (printed as hex).
std::optional<std::string> exact_float_literal(uint32_t bits) {
    const float f = bits_float(bits);
    if (!std::isfinite(f) || std::fpclassify(f) == FP_SUBNORMAL) return std::nullopt;
    std::string s = float_spelling(f);
    std::string_view mag = s;
    const bool neg = !mag.empty() && mag[0] == '-';
    if (neg) mag.remove_prefix(1);
    std::string err;
    auto n = parse_number(mag, err);
    if (!n || !n->is_float) return std::nullopt;
    const uint32_t back = neg ? (n->bits ^ 0x80000000u) : n->bits;
    if (back != bits) return std::nullopt;
    return s;
}

// A float's value for a comment (not necessarily reparseable).
std::string float_note(uint32_t bits) {
    const float f = bits_float(bits);
    if (std::isnan(f)) return (bits & 0x80000000u) ? "-NaN" : "NaN";
    if (std::isinf(f)) return f < 0 ? "-inf" : "+inf";
    return float_spelling(f);
}

// ---------------------------------------------------------------------------------
// Disassembler
// ---------------------------------------------------------------------------------
//
// The text is written straight into one output string: one item per DWORD (a macro, a payload
// value or a raw word), lines padded to the comment column. No per-line or per-item strings are
// built, so the cost is a few appends per token (the fuzzer's declaration-token path, which
// prints every array in three forms, was dominated by allocating them; docs/fuzzing.md).

// printf into a small buffer; the result is valid until the next call with the same buffer.
struct Fmt {
    char buf[160];
    template <class... A>
    std::string_view operator()(const char* format, A... a) {
        const int n = std::snprintf(buf, sizeof buf, format, a...);
        return std::string_view(buf, n < 0 ? 0 : std::min(size_t(n), sizeof buf - 1));
    }
};

// The macro text of a token that is not a payload DWORD, or false with the reason it has to be
// printed raw. `macro` and `why` are scratch strings reused from token to token.
bool decode_single(uint32_t t, std::string& macro, std::string& why) {
    Fmt f;
    macro.clear();
    why.clear();
    auto reserved = [&](uint32_t bits) {
        why += f("reserved bits 0x%08X set", bits);
    };
    auto sep = [&](size_t mark) {
        if (why.size() > mark) why += ", ";
    };
    switch (token_type(t)) {
    case TokenType::Nop:
        if (t == 0) macro = "D3DVSD_NOP()";
        else why += f("NOP (token type 0) with bits 0x%08X set", t);
        break;
    case TokenType::StreamSelector:
        if (t & kStreamTessBit) {
            if (t == D3DVSD_STREAM_TESS()) macro = "D3DVSD_STREAM_TESS()";
            else why = "STREAM_TESS with ", reserved(t & kReservedStreamTess);
        } else if (t & kReservedStream) {
            why = "STREAM with ", reserved(t & kReservedStream);
        } else {
            macro += f("D3DVSD_STREAM(%u)", t & kStreamNumberMask);
        }
        break;
    case TokenType::StreamData:
        if (t & kDataLoadTypeBit) {
            if (t & kReservedSkip) why = "SKIP with ", reserved(t & kReservedSkip);
            else macro += f("D3DVSD_SKIP(%u)", (t & kSkipCountMask) >> kSkipCountShift);
        } else {
            const uint32_t type = (t & kDataTypeMask) >> kDataTypeShift;
            const uint32_t reg = t & kVertexRegMask;
            why = "REG with ";
            const size_t mark = why.size();
            if (t & kReservedReg) reserved(t & kReservedReg);
            if (type >= kNumDataTypes) sep(mark), why += f("data type %u (not a D3D8 type)", type);
            if (reg >= kNumVertexElements) sep(mark), why += f("register %u (> 16)", reg);
            if (why.size() == mark) {
                why.clear();
                macro += f("D3DVSD_REG(%s%s, %s%s)", kVertexElementPrefix.data(), vertex_element_name(reg),
                           kDataTypePrefix.data(), data_type_name(type));
            }
        }
        break;
    case TokenType::TessellatorData: {
        const uint32_t type = (t & kDataTypeMask) >> kDataTypeShift;
        const uint32_t out = t & kTessRegOutMask;
        if (t & kDataLoadTypeBit) {
            why = "TESSUV with ";
            const size_t mark = why.size();
            if (t & kReservedTessUV) reserved(t & kReservedTessUV);
            if (type != D3DVSDT_FLOAT2) sep(mark), why += f("data type field %u (must be FLOAT2)", type);
            if (why.size() == mark) {
                why.clear();
                macro += f("D3DVSD_TESSUV(%s%s)", kVertexElementPrefix.data(), vertex_element_name(out));
            }
        } else {
            const uint32_t in = (t & kVertexRegInMask) >> kVertexRegInShift;
            why = "TESSNORMAL with ";
            const size_t mark = why.size();
            if (t & kReservedTessNormal) reserved(t & kReservedTessNormal);
            if (type != D3DVSDT_FLOAT3) sep(mark), why += f("data type field %u (must be FLOAT3)", type);
            if (why.size() == mark) {
                why.clear();
                macro += f("D3DVSD_TESSNORMAL(%s%s, %s%s)", kVertexElementPrefix.data(), vertex_element_name(in),
                           kVertexElementPrefix.data(), vertex_element_name(out));
            }
        }
        break;
    }
    case TokenType::ConstMem:
        if (t & kReservedConst) {
            why = "CONST with ";
            reserved(t & kReservedConst);
            why += f(" (address %u, count %u)", t & kConstAddressMask, (t & kConstCountMask) >> kConstCountShift);
        } else {
            macro += f("D3DVSD_CONST(%u, %u)", t & kConstAddressMask, (t & kConstCountMask) >> kConstCountShift);
        }
        break;
    case TokenType::Ext:
        why = "EXT";  // handled by the caller
        break;
    case TokenType::Reserved0:
        why = "token type 6 is reserved";
        break;
    case TokenType::End:
        if (t == kEndToken) macro = "D3DVSD_END()";
        else why = "token type 7 but not END (0xFFFFFFFF)";
        break;
    }
    return !macro.empty();
}

// Appends the lines of `tokens` to `out`: every line indented by base_indent (+4 for payload
// lines), its items separated by one space, each followed by a comma except the array's last
// DWORD (unless comma_last), then padded to comment_column (at least one space) and "// comment".
class Writer {
public:
    Writer(std::string& out, size_t n, int base_indent, size_t comment_column, bool comma_last, bool c_array)
        : out_(out), n_(n), base_(base_indent), column_(comment_column), comma_last_(comma_last), c_array_(c_array) {}

    void begin(int indent) {
        start_ = out_.size();
        out_.append(size_t(base_ + indent), ' ');
        first_ = true;
    }
    // Item for DWORD j.
    void item(std::string_view text, size_t j, std::string_view note = {}) {
        if (!first_) out_ += ' ';
        first_ = false;
        out_ += text;
        if (j + 1 != n_ || comma_last_) out_ += ',';
        if (!note.empty()) {
            out_ += " /* ";
            out_ += note;
            out_ += " */";
        }
    }
    void hex(uint32_t v, size_t j) { item(f_("0x%08X", v), j); }
    void payload(uint32_t v, size_t j) {
        if (c_array_) {
            char h[16];
            std::snprintf(h, sizeof h, "0x%08X", v);
            item(h, j, float_note(v));
        } else if (auto s = exact_float_literal(v)) {
            item(*s, j);
        } else {
            hex(v, j);
        }
    }
    // Pads to the comment column and starts the comment with "[index]"; the caller appends the
    // rest of the comment and then calls end().
    std::string& comment(size_t index) {
        const size_t len = out_.size() - start_;
        if (len < column_) out_.append(column_ - len, ' ');
        else out_ += ' ';
        out_ += "// ";
        out_ += f_("[%zu]", index);
        return out_;
    }
    void end() { out_ += '\n'; }
    // A line holding one raw DWORD j with comment "[j] <why>".
    void raw_line(uint32_t v, size_t j, std::string_view why, int indent) {
        begin(indent);
        hex(v, j);
        comment(j) += ' ';
        out_ += why;
        end();
    }

private:
    std::string& out_;
    size_t n_;
    int base_;
    size_t column_;
    bool comma_last_;
    bool c_array_;
    size_t start_ = 0;
    bool first_ = true;
    Fmt f_;
};

void write_lines(std::string& out, const std::vector<uint32_t>& tokens, int base_indent, size_t comment_column,
                 bool c_array) {
    const size_t n = tokens.size();
    out.reserve(out.size() + n * (comment_column + 24));
    Writer w(out, n, base_indent, comment_column, c_array, c_array);
    Fmt f;
    std::string macro, why;
    size_t i = 0;
    while (i < n) {
        const uint32_t t = tokens[i];
        const TokenType type = token_type(t);

        if (type == TokenType::Ext) {
            const uint32_t count = (t & kExtCountMask) >> kExtCountShift;
            const size_t avail = n - i - 1;
            w.begin(0);
            w.hex(t, i);
            w.comment(i) += f(" EXT count=%u info=0x%06X", count, t & kExtInfoMask);
            if (avail < count)
                out += f("; payload runs past the end of the array (%zu of %u DWORDs present)", avail, count);
            w.end();
            const size_t take = std::min<size_t>(count, avail);
            for (size_t k = 0; k < take; ++k)
                w.raw_line(tokens[i + 1 + k], i + 1 + k, avail < count ? "raw: truncated EXT payload" : "EXT payload", 4);
            i += 1 + take;
            continue;
        }

        const bool is_macro = decode_single(t, macro, why);
        w.begin(0);
        if (is_macro) w.item(macro, i);
        else w.hex(t, i);
        auto head_comment = [&] {
            std::string& o = w.comment(i);
            if (is_macro) o += f(" 0x%08X", t);
            else o += " raw: ", o += why;
        };

        if (type != TokenType::ConstMem) {
            head_comment();
            w.end();
            ++i;
            continue;
        }

        // CONST header (macro or raw) and its payload.
        const uint32_t count = (t & kConstCountMask) >> kConstCountShift;
        const uint32_t address = t & kConstAddressMask;
        const size_t need = size_t(count) * 4;
        const size_t avail = n - i - 1;
        if (avail < need) {
            head_comment();
            out += f("; payload runs past the end of the array (%zu of %zu DWORDs present)", avail, need);
            w.end();
            for (size_t k = 0; k < avail; ++k) w.raw_line(tokens[i + 1 + k], i + 1 + k, "raw: truncated CONST payload", 4);
            i += 1 + avail;
            continue;
        }
        if (count == 1 && !c_array) {
            for (size_t k = 0; k < 4; ++k) w.payload(tokens[i + 1 + k], i + 1 + k);
            head_comment();
            w.end();
        } else {
            head_comment();
            w.end();
            for (uint32_t v = 0; v < count; ++v) {
                const size_t j = i + 1 + size_t(v) * 4;
                w.begin(4);
                for (size_t k = 0; k < 4; ++k) w.payload(tokens[j + k], j + k);
                w.comment(j) += f(" c[%u]", address + v);
                w.end();
            }
        }
        i += 1 + need;
    }
}

}  // namespace

std::string to_text(const std::vector<uint32_t>& tokens) {
    if (tokens.empty()) return "// empty declaration (0 DWORDs)\n";
    std::string out;
    write_lines(out, tokens, 0, 51, false);
    return out;
}

std::string to_hex(const std::vector<uint32_t>& tokens) {
    std::string out;
    for (size_t i = 0; i < tokens.size(); ++i) {
        out += hex32(tokens[i]);
        out += (i % 8 == 7 || i + 1 == tokens.size()) ? '\n' : ' ';
    }
    return out;
}

std::string to_c_array(const std::vector<uint32_t>& tokens, std::string_view name) {
    const bool ident = !name.empty() && is_ident_start(name[0]) &&
                       std::all_of(name.begin(), name.end(), [](char c) { return is_ident_char(c); });
    if (!ident || is_specifier(name))
        throw std::invalid_argument("to_c_array: '" + std::string(name) + "' is not a usable C array name");
    std::string out = "DWORD " + std::string(name) + "[] = {\n";
    write_lines(out, tokens, 4, 55, true);
    out += "};\n";
    return out;
}

}  // namespace vpsim::decl

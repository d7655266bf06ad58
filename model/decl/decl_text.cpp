// Text forms of a declaration: disassembler (to_text / to_hex / to_c_array), parser
// (parse_text) and the D3DVSDT_/D3DVSDE_ name tables declared in decl_tokens.h.
#include "model/decl/decl_text.h"

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

// ---------------------------------------------------------------------------------
// Name tables (declared in decl_tokens.h)
// ---------------------------------------------------------------------------------

namespace {

constexpr std::array<const char*, kNumDataTypes> kDataTypeNames = {
    "FLOAT1", "FLOAT2", "FLOAT3", "FLOAT4", "D3DCOLOR", "UBYTE4", "SHORT2", "SHORT4",
};

constexpr std::array<const char*, kNumVertexElements> kVertexElementNames = {
    "POSITION",  "BLENDWEIGHT", "BLENDINDICES", "NORMAL",    "PSIZE",     "DIFFUSE",
    "SPECULAR",  "TEXCOORD0",   "TEXCOORD1",    "TEXCOORD2", "TEXCOORD3", "TEXCOORD4",
    "TEXCOORD5", "TEXCOORD6",   "TEXCOORD7",    "POSITION2", "NORMAL2",
};

constexpr std::string_view kDataTypePrefix = "D3DVSDT_";
constexpr std::string_view kVertexElementPrefix = "D3DVSDE_";

template <size_t N>
std::optional<uint32_t> lookup_name(const std::array<const char*, N>& table, std::string_view prefix,
                                    std::string_view name) {
    if (name.substr(0, prefix.size()) == prefix) name.remove_prefix(prefix.size());
    for (size_t i = 0; i < N; ++i)
        if (name == table[i]) return uint32_t(i);
    return std::nullopt;
}

}  // namespace

const char* data_type_name(uint32_t type) { return type < kNumDataTypes ? kDataTypeNames[type] : nullptr; }

const char* vertex_element_name(uint32_t reg) {
    return reg < kNumVertexElements ? kVertexElementNames[reg] : nullptr;
}

std::optional<uint32_t> data_type_from_name(std::string_view name) {
    return lookup_name(kDataTypeNames, kDataTypePrefix, name);
}

std::optional<uint32_t> vertex_element_from_name(std::string_view name) {
    return lookup_name(kVertexElementNames, kVertexElementPrefix, name);
}

// ---------------------------------------------------------------------------------
// Shared helpers: numbers
// ---------------------------------------------------------------------------------

namespace {

std::string hex32(uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, "0x%08X", v);
    return buf;
}

bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
int hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

// The value of a numeric literal's spelling (without sign).
struct Number {
    bool is_float = false;
    uint32_t bits = 0;  // integer value, or the float's IEEE bits
};

// Classifies a pp-number spelling. On failure returns nullopt and sets err.
std::optional<Number> parse_number(std::string_view s, std::string& err) {
    auto suffix_ok = [](std::string_view suf) {
        if (suf.size() > 3) return false;
        return std::all_of(suf.begin(), suf.end(), [](char c) { return c == 'u' || c == 'U' || c == 'l' || c == 'L'; });
    };
    if (s.size() >= 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
        size_t i = 2;
        uint64_t v = 0;
        bool overflow = false;
        while (i < s.size() && is_hex_digit(s[i])) {
            v = v * 16 + uint64_t(hex_value(s[i]));
            if (v > 0xFFFFFFFFull) overflow = true, v = 0xFFFFFFFFull;
            ++i;
        }
        std::string_view rest = s.substr(i);
        if (rest.find_first_of(".pP") != std::string_view::npos) {
            err = "hex float literal '" + std::string(s) + "' is not supported; write the float in decimal or its bits as a hex DWORD";
            return std::nullopt;
        }
        if (i == 2 || !suffix_ok(rest)) {
            err = "invalid hex literal '" + std::string(s) + "'";
            return std::nullopt;
        }
        if (overflow) {
            err = "hex literal '" + std::string(s) + "' does not fit in 32 bits";
            return std::nullopt;
        }
        return Number{false, uint32_t(v)};
    }

    // Decimal integer or float.
    size_t i = 0;
    while (i < s.size() && is_digit(s[i])) ++i;
    const size_t int_digits = i;
    bool has_point = false, has_exp = false;
    size_t frac_digits = 0;
    if (i < s.size() && s[i] == '.') {
        has_point = true;
        ++i;
        while (i < s.size() && is_digit(s[i])) ++i, ++frac_digits;
    }
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1;
        if (j < s.size() && (s[j] == '+' || s[j] == '-')) ++j;
        size_t k = j;
        while (k < s.size() && is_digit(s[k])) ++k;
        if (k == j) {
            err = "invalid float literal '" + std::string(s) + "': exponent has no digits";
            return std::nullopt;
        }
        has_exp = true;
        i = k;
    }
    const size_t mantissa_end = i;
    std::string_view rest = s.substr(i);
    const bool f_suffix = rest == "f" || rest == "F";
    if (int_digits + frac_digits == 0) {
        err = "invalid number '" + std::string(s) + "'";
        return std::nullopt;
    }
    if (has_point || has_exp || f_suffix) {
        if (!rest.empty() && !f_suffix) {
            err = "invalid float literal '" + std::string(s) + "' (only an f/F suffix is allowed)";
            return std::nullopt;
        }
        float f = 0.0f;
        const char* b = s.data();
        auto r = std::from_chars(b, b + mantissa_end, f, std::chars_format::general);
        if (r.ec == std::errc::result_out_of_range) {
            err = "float literal '" + std::string(s) + "' is out of range for a 32-bit float";
            return std::nullopt;
        }
        if (r.ec != std::errc() || r.ptr != b + mantissa_end) {
            err = "invalid float literal '" + std::string(s) + "'";
            return std::nullopt;
        }
        return Number{true, float_bits(f)};
    }
    if (!suffix_ok(rest)) {
        err = "invalid number '" + std::string(s) + "'";
        return std::nullopt;
    }
    if (int_digits > 1 && s[0] == '0') {
        err = "integer '" + std::string(s) +
              "' has a leading 0 (an octal literal in C), which is not supported; write it in decimal or hex";
        return std::nullopt;
    }
    uint64_t v = 0;
    for (size_t k = 0; k < int_digits; ++k) {
        v = v * 10 + uint64_t(s[k] - '0');
        if (v > 0xFFFFFFFFull) {
            err = "integer '" + std::string(s) + "' does not fit in 32 bits";
            return std::nullopt;
        }
    }
    return Number{false, uint32_t(v)};
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

struct Item {
    std::string text;
    std::string note;  // C-array form: "/* note */" after the comma
};

struct Line {
    int indent = 0;
    std::vector<Item> items;
    std::string comment;
};

std::string reg_name(uint32_t reg) { return std::string(kVertexElementPrefix) + vertex_element_name(reg); }
std::string type_name(uint32_t type) { return std::string(kDataTypePrefix) + data_type_name(type); }

std::string fmt_u(const char* format, uint32_t a) {
    char buf[128];
    std::snprintf(buf, sizeof buf, format, a);
    return buf;
}

std::string fmt_uu(const char* format, uint32_t a, uint32_t b) {
    char buf[128];
    std::snprintf(buf, sizeof buf, format, a, b);
    return buf;
}

std::string index_tag(size_t i) { return "[" + std::to_string(i) + "]"; }

std::string join(const std::vector<std::string>& parts, const char* sep) {
    std::string out;
    for (size_t i = 0; i < parts.size(); ++i) {
        if (i) out += sep;
        out += parts[i];
    }
    return out;
}

std::string reserved_reason(uint32_t bits) { return "reserved bits " + hex32(bits) + " set"; }

// The macro text of a token that is not a payload DWORD, or nullopt with the reason
// it has to be printed raw.
struct Decoded {
    std::optional<std::string> macro;
    std::string why;  // when raw
};

Decoded decode_single(uint32_t t) {
    Decoded d;
    switch (token_type(t)) {
    case TokenType::Nop:
        if (t == 0) d.macro = "D3DVSD_NOP()";
        else d.why = "NOP (token type 0) with bits " + hex32(t) + " set";
        break;
    case TokenType::StreamSelector:
        if (t & kStreamTessBit) {
            if (t == D3DVSD_STREAM_TESS()) d.macro = "D3DVSD_STREAM_TESS()";
            else d.why = "STREAM_TESS with " + reserved_reason(t & kReservedStreamTess);
        } else if (t & kReservedStream) {
            d.why = "STREAM with " + reserved_reason(t & kReservedStream);
        } else {
            d.macro = fmt_u("D3DVSD_STREAM(%u)", t & kStreamNumberMask);
        }
        break;
    case TokenType::StreamData:
        if (t & kDataLoadTypeBit) {
            if (t & kReservedSkip) d.why = "SKIP with " + reserved_reason(t & kReservedSkip);
            else d.macro = fmt_u("D3DVSD_SKIP(%u)", (t & kSkipCountMask) >> kSkipCountShift);
        } else {
            const uint32_t type = (t & kDataTypeMask) >> kDataTypeShift;
            const uint32_t reg = t & kVertexRegMask;
            std::vector<std::string> why;
            if (t & kReservedReg) why.push_back(reserved_reason(t & kReservedReg));
            if (type >= kNumDataTypes) why.push_back(fmt_u("data type %u (not a D3D8 type)", type));
            if (reg >= kNumVertexElements) why.push_back(fmt_u("register %u (> 16)", reg));
            if (why.empty()) d.macro = "D3DVSD_REG(" + reg_name(reg) + ", " + type_name(type) + ")";
            else d.why = "REG with " + join(why, ", ");
        }
        break;
    case TokenType::TessellatorData: {
        const uint32_t type = (t & kDataTypeMask) >> kDataTypeShift;
        const uint32_t out = t & kTessRegOutMask;
        std::vector<std::string> why;
        if (t & kDataLoadTypeBit) {
            if (t & kReservedTessUV) why.push_back(reserved_reason(t & kReservedTessUV));
            if (type != D3DVSDT_FLOAT2) why.push_back(fmt_u("data type field %u (must be FLOAT2)", type));
            if (why.empty()) d.macro = "D3DVSD_TESSUV(" + reg_name(out) + ")";
            else d.why = "TESSUV with " + join(why, ", ");
        } else {
            const uint32_t in = (t & kVertexRegInMask) >> kVertexRegInShift;
            if (t & kReservedTessNormal) why.push_back(reserved_reason(t & kReservedTessNormal));
            if (type != D3DVSDT_FLOAT3) why.push_back(fmt_u("data type field %u (must be FLOAT3)", type));
            if (why.empty()) d.macro = "D3DVSD_TESSNORMAL(" + reg_name(in) + ", " + reg_name(out) + ")";
            else d.why = "TESSNORMAL with " + join(why, ", ");
        }
        break;
    }
    case TokenType::ConstMem:
        if (t & kReservedConst)
            d.why = "CONST with " + reserved_reason(t & kReservedConst) +
                    fmt_uu(" (address %u, count %u)", t & kConstAddressMask,
                           (t & kConstCountMask) >> kConstCountShift);
        else
            d.macro = fmt_uu("D3DVSD_CONST(%u, %u)", t & kConstAddressMask, (t & kConstCountMask) >> kConstCountShift);
        break;
    case TokenType::Ext:
        d.why = "EXT";  // handled by the caller
        break;
    case TokenType::Reserved0:
        d.why = "token type 6 is reserved";
        break;
    case TokenType::End:
        if (t == kEndToken) d.macro = "D3DVSD_END()";
        else d.why = "token type 7 but not END (0xFFFFFFFF)";
        break;
    }
    return d;
}

std::vector<Line> build_lines(const std::vector<uint32_t>& tokens, bool c_array) {
    std::vector<Line> lines;
    const size_t n = tokens.size();
    auto payload_item = [&](uint32_t v) {
        Item it;
        if (c_array) {
            it.text = hex32(v);
            it.note = float_note(v);
        } else if (auto s = exact_float_literal(v)) {
            it.text = *s;
        } else {
            it.text = hex32(v);
        }
        return it;
    };
    auto raw_line = [&](size_t j, std::string comment, int indent) {
        Line l;
        l.indent = indent;
        l.items.push_back({hex32(tokens[j]), {}});
        l.comment = index_tag(j) + " " + std::move(comment);
        lines.push_back(std::move(l));
    };

    size_t i = 0;
    while (i < n) {
        const uint32_t t = tokens[i];
        const TokenType type = token_type(t);

        if (type == TokenType::Ext) {
            const uint32_t count = (t & kExtCountMask) >> kExtCountShift;
            const size_t avail = n - i - 1;
            std::string comment = index_tag(i) + fmt_uu(" EXT count=%u info=0x%06X", count, t & kExtInfoMask);
            if (avail < count)
                comment += "; payload runs past the end of the array (" + std::to_string(avail) + " of " +
                           std::to_string(count) + " DWORDs present)";
            Line l;
            l.items.push_back({hex32(t), {}});
            l.comment = std::move(comment);
            lines.push_back(std::move(l));
            const size_t take = std::min<size_t>(count, avail);
            for (size_t k = 0; k < take; ++k)
                raw_line(i + 1 + k, avail < count ? "raw: truncated EXT payload" : "EXT payload", 4);
            i += 1 + take;
            continue;
        }

        Decoded d = decode_single(t);
        Line head;
        if (d.macro) {
            head.items.push_back({*d.macro, {}});
            head.comment = index_tag(i) + " " + hex32(t);
        } else {
            head.items.push_back({hex32(t), {}});
            head.comment = index_tag(i) + " raw: " + d.why;
        }

        if (type != TokenType::ConstMem) {
            lines.push_back(std::move(head));
            ++i;
            continue;
        }

        // CONST header (macro or raw) and its payload.
        const uint32_t count = (t & kConstCountMask) >> kConstCountShift;
        const uint32_t address = t & kConstAddressMask;
        const size_t need = size_t(count) * 4;
        const size_t avail = n - i - 1;
        if (avail < need) {
            head.comment += "; payload runs past the end of the array (" + std::to_string(avail) + " of " +
                            std::to_string(need) + " DWORDs present)";
            lines.push_back(std::move(head));
            for (size_t k = 0; k < avail; ++k) raw_line(i + 1 + k, "raw: truncated CONST payload", 4);
            i += 1 + avail;
            continue;
        }
        if (count == 1 && !c_array) {
            for (size_t k = 0; k < 4; ++k) head.items.push_back(payload_item(tokens[i + 1 + k]));
            lines.push_back(std::move(head));
        } else {
            lines.push_back(std::move(head));
            for (uint32_t v = 0; v < count; ++v) {
                Line l;
                l.indent = 4;
                const size_t j = i + 1 + size_t(v) * 4;
                for (size_t k = 0; k < 4; ++k) l.items.push_back(payload_item(tokens[j + k]));
                l.comment = index_tag(j) + " c[" + std::to_string(address + v) + "]";
                lines.push_back(std::move(l));
            }
        }
        i += 1 + need;
    }
    return lines;
}

// comma_last: put a comma after the array's last item too.
std::string render(const std::vector<Line>& lines, int base_indent, size_t comment_column, bool comma_last) {
    std::string out;
    for (size_t li = 0; li < lines.size(); ++li) {
        const Line& l = lines[li];
        std::string code(size_t(base_indent + l.indent), ' ');
        for (size_t k = 0; k < l.items.size(); ++k) {
            const Item& it = l.items[k];
            const bool last = li + 1 == lines.size() && k + 1 == l.items.size();
            if (k) code += ' ';
            code += it.text;
            if (!last || comma_last) code += ',';
            if (!it.note.empty()) code += " /* " + it.note + " */";
        }
        if (code.size() < comment_column) code.resize(comment_column, ' ');
        else code += ' ';
        out += code;
        out += "// ";
        out += l.comment;
        out += '\n';
    }
    return out;
}

const std::vector<std::string_view>& specifier_words() {
    static const std::vector<std::string_view> w = {"const", "static", "constexpr", "extern", "CONST", "DWORD",
                                                    "UINT",  "ULONG",  "uint32_t",  "unsigned", "long", "int"};
    return w;
}

bool is_specifier(std::string_view s) {
    const auto& w = specifier_words();
    return std::find(w.begin(), w.end(), s) != w.end();
}

}  // namespace

std::string to_text(const std::vector<uint32_t>& tokens) {
    if (tokens.empty()) return "// empty declaration (0 DWORDs)\n";
    return render(build_lines(tokens, false), 0, 51, false);
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
    out += render(build_lines(tokens, true), 4, 55, true);
    out += "};\n";
    return out;
}

// ---------------------------------------------------------------------------------
// Parser
// ---------------------------------------------------------------------------------

TextError::TextError(std::string file_, int line_, int column_, std::string message_)
    : std::runtime_error(file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) +
                         ": error: " + message_),
      file(std::move(file_)),
      line(line_),
      column(column_),
      message(std::move(message_)) {}

namespace {

struct Tok {
    enum Kind { Eof, Ident, Num, Punct } kind = Eof;
    std::string_view text;
    int line = 1;
    int col = 1;

    bool is(char c) const { return kind == Punct && text.size() == 1 && text[0] == c; }
};

std::string describe(const Tok& t) {
    switch (t.kind) {
    case Tok::Eof: return "end of input";
    case Tok::Ident: return "identifier '" + std::string(t.text) + "'";
    case Tok::Num: return "number '" + std::string(t.text) + "'";
    case Tok::Punct: break;
    }
    return "'" + std::string(t.text) + "'";
}

std::string where(const Tok& t) { return std::to_string(t.line) + ":" + std::to_string(t.col); }

class Lexer {
public:
    Lexer(std::string_view s, const std::string& file) : s_(s), file_(file) {
        if (s_.substr(0, 3) == "\xEF\xBB\xBF") pos_ = 3;  // UTF-8 byte order mark
    }

    Tok next() {
        skip_space_and_comments();
        Tok t;
        t.line = line_;
        t.col = col_;
        if (pos_ >= s_.size()) return t;
        const size_t start = pos_;
        const char c = s_[pos_];
        if (is_ident_start(c)) {
            while (pos_ < s_.size() && is_ident_char(s_[pos_])) advance();
            t.kind = Tok::Ident;
        } else if (is_digit(c) || (c == '.' && pos_ + 1 < s_.size() && is_digit(s_[pos_ + 1]))) {
            // C pp-number: digits, letters, '_', '.', and a sign right after e/E/p/P.
            advance();
            while (pos_ < s_.size()) {
                const char d = s_[pos_];
                if (is_ident_char(d) || d == '.') {
                    advance();
                } else if ((d == '+' || d == '-') &&
                           (s_[pos_ - 1] == 'e' || s_[pos_ - 1] == 'E' || s_[pos_ - 1] == 'p' ||
                            s_[pos_ - 1] == 'P')) {
                    advance();
                } else {
                    break;
                }
            }
            t.kind = Tok::Num;
        } else if (std::string_view("(){}[],;=*&-+").find(c) != std::string_view::npos) {
            advance();
            t.kind = Tok::Punct;
        } else {
            char buf[64];
            const unsigned char u = static_cast<unsigned char>(c);
            if (u >= 0x21 && u < 0x7F) std::snprintf(buf, sizeof buf, "unexpected character '%c'", c);
            else std::snprintf(buf, sizeof buf, "unexpected character '\\x%02X'", u);
            throw TextError(file_, t.line, t.col, buf);
        }
        t.text = s_.substr(start, pos_ - start);
        return t;
    }

private:
    void advance() {
        if (s_[pos_] == '\n') ++line_, col_ = 1;
        else ++col_;
        ++pos_;
    }

    void skip_space_and_comments() {
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                advance();
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                while (pos_ < s_.size() && s_[pos_] != '\n') advance();
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
                const int l = line_, co = col_;
                advance();
                advance();
                for (;;) {
                    if (pos_ >= s_.size()) throw TextError(file_, l, co, "unterminated /* comment");
                    if (s_[pos_] == '*' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                        advance();
                        advance();
                        break;
                    }
                    advance();
                }
            } else {
                break;
            }
        }
    }

    std::string_view s_;
    const std::string& file_;
    size_t pos_ = 0;
    int line_ = 1;
    int col_ = 1;
};

enum class ArgKind { Int, Reg, Type };

struct ArgSpec {
    const char* what;
    ArgKind kind;
    uint32_t max;
};

struct MacroSpec {
    const char* name;
    int nargs;
    ArgSpec args[2];
    uint32_t (*encode)(uint32_t, uint32_t);
};

const MacroSpec kMacros[] = {
    {"D3DVSD_STREAM", 1, {{"stream number", ArgKind::Int, 15}, {}}, [](uint32_t a, uint32_t) { return D3DVSD_STREAM(a); }},
    {"D3DVSD_STREAM_TESS", 0, {}, [](uint32_t, uint32_t) { return D3DVSD_STREAM_TESS(); }},
    {"D3DVSD_REG", 2, {{"register", ArgKind::Reg, 31}, {"data type", ArgKind::Type, 15}},
     [](uint32_t a, uint32_t b) { return D3DVSD_REG(a, b); }},
    {"D3DVSD_SKIP", 1, {{"DWORD count", ArgKind::Int, 15}, {}}, [](uint32_t a, uint32_t) { return D3DVSD_SKIP(a); }},
    {"D3DVSD_TESSNORMAL", 2, {{"input register", ArgKind::Reg, 15}, {"output register", ArgKind::Reg, 15}},
     [](uint32_t a, uint32_t b) { return D3DVSD_TESSNORMAL(a, b); }},
    {"D3DVSD_TESSUV", 1, {{"register", ArgKind::Reg, 15}, {}}, [](uint32_t a, uint32_t) { return D3DVSD_TESSUV(a); }},
    {"D3DVSD_CONST", 2, {{"constant address", ArgKind::Int, 127}, {"vec4 count", ArgKind::Int, 15}},
     [](uint32_t a, uint32_t b) { return D3DVSD_CONST(a, b); }},
    {"D3DVSD_EXT", 2, {{"DWORD count", ArgKind::Int, 31}, {"info", ArgKind::Int, 0xFFFFFF}},
     [](uint32_t a, uint32_t b) { return D3DVSD_EXT(a, b); }},
    {"D3DVSD_NOP", 0, {}, [](uint32_t, uint32_t) { return D3DVSD_NOP(); }},
    {"D3DVSD_END", 0, {}, [](uint32_t, uint32_t) { return D3DVSD_END(); }},
};

const MacroSpec* find_macro(std::string_view name) {
    for (const MacroSpec& m : kMacros)
        if (name == m.name) return &m;
    return nullptr;
}

bool is_float_macro(std::string_view s) { return s == "FtoDW" || s == "F2DW"; }

bool is_cast_type(std::string_view s) {
    return s == "DWORD" || s == "UINT" || s == "ULONG" || s == "uint32_t" || s == "unsigned";
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t sub = prev[j - 1] + (lower(a[i - 1]) == lower(b[j - 1]) ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string suggestion(std::string_view name) {
    std::vector<std::string> known;
    for (const MacroSpec& m : kMacros) known.push_back(m.name);
    for (const char* n : kVertexElementNames) known.push_back(std::string(kVertexElementPrefix) + n);
    for (const char* n : kDataTypeNames) known.push_back(std::string(kDataTypePrefix) + n);
    for (const char* n : {"FtoDW", "F2DW", "DWORD"}) known.push_back(n);
    std::string best;
    size_t best_d = 3;  // suggest only within distance 2
    for (const std::string& k : known) {
        const size_t d = edit_distance(name, k);
        if (d < best_d) best_d = d, best = k;
    }
    return best.empty() ? std::string() : " (did you mean " + best + "?)";
}

class Parser {
public:
    Parser(std::string_view text, std::string file) : file_(std::move(file)), lex_(text, file_) {}

    std::vector<uint32_t> run() {
        std::vector<uint32_t> out;
        const Tok first = peek();
        if (first.kind == Tok::Eof) return out;
        if (first.is('{')) {
            parse_braced(out);
            finish_c_array();
        } else if (first.kind == Tok::Ident && !starts_item(first.text)) {
            parse_c_array(out);
        } else {
            while (peek().kind != Tok::Eof) {
                parse_item(out);
                if (peek().is(',')) take();
            }
        }
        return out;
    }

private:
    static bool starts_item(std::string_view s) {
        return s.substr(0, 6) == "D3DVSD" || is_float_macro(s) || data_type_from_name(s) ||
               vertex_element_from_name(s);
    }

    const Tok& peek(size_t k = 0) {
        while (la_.size() <= k) la_.push_back(lex_.next());
        return la_[k];
    }

    Tok take() {
        peek();
        Tok t = la_.front();
        la_.erase(la_.begin());
        return t;
    }

    [[noreturn]] void fail(const Tok& t, const std::string& msg) { throw TextError(file_, t.line, t.col, msg); }

    Tok expect(char c, const std::string& context) {
        Tok t = take();
        if (!t.is(c)) fail(t, "expected '" + std::string(1, c) + "' " + context + ", found " + describe(t));
        return t;
    }

    [[noreturn]] void unknown_identifier(const Tok& t, const std::string& expected) {
        fail(t, "unknown identifier '" + std::string(t.text) + "'" + suggestion(t.text) + "; expected " + expected);
    }

    static constexpr const char* kItemExpected =
        "a declaration item (D3DVSD_* macro, integer, hex or float literal, FtoDW(...), (DWORD) cast)";

    // ---- C array ----

    void parse_c_array(std::vector<uint32_t>& out) {
        std::vector<Tok> ids;
        while (peek().kind == Tok::Ident) ids.push_back(take());
        const Tok nx = peek();
        const Tok& name = ids.back();
        if (!nx.is('[')) {
            if (ids.size() == 1 && !is_specifier(ids[0].text))
                unknown_identifier(ids[0], std::string(kItemExpected) + " or a C array declaration");
            if (is_specifier(name.text)) fail(nx, "expected the array name, found " + describe(nx));
            if (!is_specifier(ids[0].text))
                unknown_identifier(ids[0], "a declaration specifier (const, static, DWORD, ...) or the array name");
            fail(nx, "expected '[' after the array name '" + std::string(name.text) + "', found " + describe(nx));
        }
        for (size_t i = 0; i + 1 < ids.size(); ++i)
            if (!is_specifier(ids[i].text))
                unknown_identifier(ids[i], "a declaration specifier (const, static, DWORD, ...) or the array name");
        if (is_specifier(name.text)) fail(nx, "expected the array name before '['");
        take();  // '['
        std::optional<uint32_t> size;
        if (peek().kind == Tok::Num) {
            const Tok n = take();
            const Number v = number(n);
            if (v.is_float) fail(n, "expected an integer array size, found " + describe(n));
            size = v.bits;
        }
        expect(']', size ? "after the array size" : "or an array size after '['");
        expect('=', "after 'name[]'");
        const Tok brace = peek();
        if (!brace.is('{')) fail(brace, "expected '{' to start the array initializer, found " + describe(brace));
        parse_braced(out);
        if (size) {
            if (*size < out.size())
                fail(brace, "too many initializers: array declared with " + std::to_string(*size) + " elements has " +
                                std::to_string(out.size()));
            out.resize(*size, D3DVSD_NOP());
        }
        finish_c_array();
    }

    void parse_braced(std::vector<uint32_t>& out) {
        const Tok open = take();  // '{'
        auto missing = [&](const Tok& t) {
            fail(t, "missing '}' to close the '{' at " + where(open) + ", found end of input");
        };
        for (;;) {
            const Tok t = peek();
            if (t.is('}')) {
                take();
                return;
            }
            if (t.kind == Tok::Eof) missing(t);
            parse_item(out);
            const Tok s = peek();
            if (s.is(',')) {
                take();
                continue;
            }
            if (s.is('}')) {
                take();
                return;
            }
            if (s.kind == Tok::Eof) missing(s);
            fail(s, "expected ',' or '}' after an item in the array initializer, found " + describe(s));
        }
    }

    void finish_c_array() {
        if (peek().is(';')) take();
        const Tok t = peek();
        if (t.kind != Tok::Eof) fail(t, "unexpected " + describe(t) + " after the array initializer; expected end of input");
    }

    // ---- items ----

    Number number(const Tok& t) {
        std::string err;
        auto n = parse_number(t.text, err);
        if (!n) fail(t, err);
        return *n;
    }

    // After an optional sign token, a float literal (or, with allow_int, an integer
    // literal converted to float). Returns the IEEE bits.
    uint32_t signed_float(bool allow_int, const char* context) {
        Tok t = take();
        bool neg = false;
        const bool signed_ = t.is('-') || t.is('+');
        if (signed_) {
            neg = t.is('-');
            t = take();
        }
        if (t.kind != Tok::Num) fail(t, std::string("expected a float literal ") + context + ", found " + describe(t));
        Number n = number(t);
        if (!n.is_float) {
            if (!allow_int)
                fail(t, "a sign is only allowed before a float literal; write a negative integer as its hex DWORD");
            n.bits = float_bits(float(n.bits));
        }
        return neg ? (n.bits ^ 0x80000000u) : n.bits;
    }

    void parse_item(std::vector<uint32_t>& out) {
        const Tok t = peek();
        switch (t.kind) {
        case Tok::Num:
            take();
            out.push_back(number(t).bits);
            return;
        case Tok::Ident:
            take();
            if (const MacroSpec* m = find_macro(t.text)) {
                out.push_back(parse_macro(t, *m));
                return;
            }
            if (is_float_macro(t.text)) {
                expect('(', "after " + std::string(t.text));
                out.push_back(signed_float(true, ("inside " + std::string(t.text) + "(...)").c_str()));
                expect(')', "to close " + std::string(t.text) + "(...)");
                return;
            }
            if (data_type_from_name(t.text))
                fail(t, "'" + std::string(t.text) +
                            "' is a data type name, not a token; names are only allowed as D3DVSD_REG arguments");
            if (vertex_element_from_name(t.text))
                fail(t, "'" + std::string(t.text) +
                            "' is a register name, not a token; names are only allowed as D3DVSD_REG, "
                            "D3DVSD_TESSNORMAL and D3DVSD_TESSUV arguments");
            unknown_identifier(t, kItemExpected);
        case Tok::Punct:
            if (t.is('-') || t.is('+')) {
                out.push_back(signed_float(false, "after the sign"));
                return;
            }
            if (t.is('(')) {
                out.push_back(parse_cast());
                return;
            }
            if (t.is('*'))
                fail(t, "'*(DWORD*)&variable' reinterprets a variable, which cannot be evaluated here; "
                        "write the float literal (e.g. 1.0f), FtoDW(1.0f) or its bits in hex (0x3F800000)");
            break;
        case Tok::Eof:
            break;
        }
        fail(t, std::string("expected ") + kItemExpected + ", found " + describe(t));
    }

    uint32_t parse_cast() {
        take();  // '('
        const Tok ty = take();
        if (ty.kind != Tok::Ident || !is_cast_type(ty.text))
            fail(ty, "expected a cast such as (DWORD) after '(', found " + describe(ty));
        expect(')', "to close the (" + std::string(ty.text) + ") cast");
        Tok v = take();
        const bool paren = v.is('(');
        if (paren) v = take();
        if (v.kind != Tok::Num)
            fail(v, "expected an integer literal after (" + std::string(ty.text) + "), found " + describe(v));
        const Number n = number(v);
        if (n.is_float)
            fail(v, "(" + std::string(ty.text) +
                        ") of a float literal converts its value, not its bits; write the float literal "
                        "itself, FtoDW(...) or its bits in hex");
        if (paren) expect(')', "after the cast operand");
        return n.bits;
    }

    uint32_t parse_macro(const Tok& name, const MacroSpec& m) {
        const std::string mname(name.text);
        expect('(', "after " + mname);
        std::vector<Tok> args;
        Tok close;
        if (peek().is(')')) {
            close = take();
        } else {
            for (;;) {
                const Tok a = take();
                if (a.kind != Tok::Ident && a.kind != Tok::Num)
                    fail(a, "expected an argument (integer or name) in " + mname + "(...), found " + describe(a));
                args.push_back(a);
                const Tok s = take();
                if (s.is(',')) continue;
                if (s.is(')')) {
                    close = s;
                    break;
                }
                fail(s, "expected ',' or ')' in " + mname + "(...), found " + describe(s));
            }
        }
        auto signature = [&] {
            if (m.nargs == 0) return std::string("no arguments");
            std::string s = std::to_string(m.nargs) + (m.nargs == 1 ? " argument (" : " arguments (");
            for (int i = 0; i < m.nargs; ++i) s += (i ? ", " : "") + std::string(m.args[i].what);
            return s + ")";
        };
        if (int(args.size()) > m.nargs)
            fail(args[size_t(m.nargs)], "too many arguments: " + mname + " takes " + signature());
        if (int(args.size()) < m.nargs)
            fail(close, "too few arguments: " + mname + " takes " + signature() + ", got " + std::to_string(args.size()));
        uint32_t v[2] = {0, 0};
        for (int i = 0; i < m.nargs; ++i) v[i] = argument(args[size_t(i)], m.args[i], mname);
        return m.encode(v[0], v[1]);
    }

    uint32_t argument(const Tok& a, const ArgSpec& spec, const std::string& mname) {
        const std::string role = mname + "'s " + spec.what;
        auto range = [&](uint32_t v, const std::string& shown) {
            if (v > spec.max)
                fail(a, spec.what + std::string(" ") + shown + " out of range for " + mname + " (0.." +
                            std::to_string(spec.max) + ")");
            return v;
        };
        if (a.kind == Tok::Num) {
            const Number n = number(a);
            if (n.is_float) fail(a, "expected an integer for " + role + ", found " + describe(a));
            return range(n.bits, std::to_string(n.bits));
        }
        const auto reg = vertex_element_from_name(a.text);
        const auto type = data_type_from_name(a.text);
        const std::string shown = std::string(a.text);
        switch (spec.kind) {
        case ArgKind::Reg:
            if (reg) return range(*reg, shown + " (" + std::to_string(*reg) + ")");
            if (type)
                fail(a, "'" + shown + "' is a data type name; expected " + role +
                            " (a D3DVSDE_* name or an integer)");
            unknown_identifier(a, role + " (a D3DVSDE_* name or an integer)");
        case ArgKind::Type:
            if (type) return range(*type, shown + " (" + std::to_string(*type) + ")");
            if (reg)
                fail(a, "'" + shown + "' is a register name; expected " + role + " (a D3DVSDT_* name or an integer)");
            unknown_identifier(a, role + " (a D3DVSDT_* name or an integer)");
        case ArgKind::Int:
            break;
        }
        if (reg || type) fail(a, "expected an integer for " + role + ", found the name '" + shown + "'");
        unknown_identifier(a, "an integer for " + role);
    }

    std::string file_;
    Lexer lex_;
    std::vector<Tok> la_;
};

}  // namespace

std::vector<uint32_t> parse_text(std::string_view text, std::string_view filename) {
    Parser p(text, filename.empty() ? std::string("<input>") : std::string(filename));
    return p.run();
}

}  // namespace vpsim::decl

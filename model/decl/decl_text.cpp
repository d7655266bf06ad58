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

    // advance() up to `end`, a run at a time (whitespace and comments are most of a printed
    // declaration: the comment column and a comment on every line).
    void advance_to(size_t end) {
        const std::string_view run = s_.substr(0, end);  // never search past `end`
        for (;;) {
            const size_t nl = run.find('\n', pos_);
            if (nl == std::string_view::npos) break;
            ++line_;
            col_ = 1;
            pos_ = nl + 1;
        }
        col_ += int(end - pos_);
        pos_ = end;
    }

    void skip_space_and_comments() {
        while (pos_ < s_.size()) {
            const char c = s_[pos_];
            if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v') {
                const size_t e = s_.find_first_not_of(" \t\n\r\f\v", pos_);
                advance_to(e == std::string_view::npos ? s_.size() : e);
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '/') {
                const size_t e = s_.find('\n', pos_);
                advance_to(e == std::string_view::npos ? s_.size() : e);
            } else if (c == '/' && pos_ + 1 < s_.size() && s_[pos_ + 1] == '*') {
                const int l = line_, co = col_;
                const size_t e = s_.find("*/", pos_ + 2);
                if (e == std::string_view::npos) throw TextError(file_, l, co, "unterminated /* comment");
                advance_to(e + 2);
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

    // The context of the message ("after D3DVSD_REG") is given in pieces, joined only on failure.
    Tok expect(char c, std::string_view context, std::string_view more = {}, std::string_view tail = {}) {
        Tok t = take();
        if (!t.is(c))
            fail(t, "expected '" + std::string(1, c) + "' " + std::string(context) + std::string(more) +
                        std::string(tail) + ", found " + describe(t));
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
            if (v.bits > kMaxTextArrayDwords)
                fail(n, "array size " + std::to_string(v.bits) + " exceeds vpsim's limit of " +
                            std::to_string(kMaxTextArrayDwords) + " DWORDs");
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
                expect('(', "after ", t.text);
                out.push_back(signed_float(true, ("inside " + std::string(t.text) + "(...)").c_str()));
                expect(')', "to close ", t.text, "(...)");
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
        expect(')', "to close the (", ty.text, ") cast");
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
        const std::string_view mname = name.text;
        expect('(', "after ", mname);
        // The arguments: the first three are kept (a macro takes at most two; the third is the
        // one a "too many arguments" error points at), the rest only counted.
        std::array<Tok, 3> args;
        size_t nargs = 0;
        Tok close;
        if (peek().is(')')) {
            close = take();
        } else {
            for (;;) {
                const Tok a = take();
                if (a.kind != Tok::Ident && a.kind != Tok::Num)
                    fail(a, "expected an argument (integer or name) in " + std::string(mname) + "(...), found " +
                                describe(a));
                if (nargs < args.size()) args[nargs] = a;
                ++nargs;
                const Tok s = take();
                if (s.is(',')) continue;
                if (s.is(')')) {
                    close = s;
                    break;
                }
                fail(s, "expected ',' or ')' in " + std::string(mname) + "(...), found " + describe(s));
            }
        }
        auto signature = [&] {
            if (m.nargs == 0) return std::string("no arguments");
            std::string s = std::to_string(m.nargs) + (m.nargs == 1 ? " argument (" : " arguments (");
            for (int i = 0; i < m.nargs; ++i) s += (i ? ", " : "") + std::string(m.args[i].what);
            return s + ")";
        };
        if (int(nargs) > m.nargs)
            fail(args[size_t(m.nargs)], "too many arguments: " + std::string(mname) + " takes " + signature());
        if (int(nargs) < m.nargs)
            fail(close, "too few arguments: " + std::string(mname) + " takes " + signature() + ", got " +
                            std::to_string(nargs));
        uint32_t v[2] = {0, 0};
        for (int i = 0; i < m.nargs; ++i) v[i] = argument(args[size_t(i)], m.args[i], mname);
        return m.encode(v[0], v[1]);
    }

    // Messages are built only on the error paths (this runs for every macro argument).
    uint32_t argument(const Tok& a, const ArgSpec& spec, std::string_view mname_view) {
        const std::string_view shown_view = a.text;
        auto role_text = [&] { return std::string(mname_view) + "'s " + spec.what; };
        // `named`: the argument was a name with value v (the message shows "NAME (v)").
        auto range = [&](uint32_t v, bool named) {
            if (v > spec.max)
                fail(a, spec.what + std::string(" ") +
                            (named ? std::string(shown_view) + " (" + std::to_string(v) + ")" : std::to_string(v)) +
                            " out of range for " + std::string(mname_view) + " (0.." + std::to_string(spec.max) + ")");
            return v;
        };
        if (a.kind == Tok::Num) {
            const Number n = number(a);
            if (n.is_float) fail(a, "expected an integer for " + role_text() + ", found " + describe(a));
            return range(n.bits, false);
        }
        const auto reg = vertex_element_from_name(a.text);
        const auto type = data_type_from_name(a.text);
        if ((spec.kind == ArgKind::Reg && reg) || (spec.kind == ArgKind::Type && type))
            return range(spec.kind == ArgKind::Reg ? *reg : *type, true);
        const std::string shown = std::string(shown_view);
        const std::string role = role_text();
        const std::string mname(mname_view);
        switch (spec.kind) {
        case ArgKind::Reg:
            if (type)
                fail(a, "'" + shown + "' is a data type name; expected " + role +
                            " (a D3DVSDE_* name or an integer)");
            unknown_identifier(a, role + " (a D3DVSDE_* name or an integer)");
        case ArgKind::Type:
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

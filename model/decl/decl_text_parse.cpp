// The parser of decl_text.h: parse_text (macro form, raw DWORD lists, C array initializers).
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

size_t edit_distance(std::string_view a, std::string_view b) {
    std::vector<size_t> prev(b.size() + 1), cur(b.size() + 1);
    for (size_t j = 0; j <= b.size(); ++j) prev[j] = j;
    for (size_t i = 1; i <= a.size(); ++i) {
        cur[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            const size_t sub = prev[j - 1] + (to_lower(a[i - 1]) == to_lower(b[j - 1]) ? 0 : 1);
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, sub});
        }
        std::swap(prev, cur);
    }
    return prev[b.size()];
}

std::string suggestion(std::string_view name) {
    std::vector<std::string> known;
    for (const MacroSpec& m : kMacros) known.push_back(m.name);
    for (uint32_t r = 0; r < kNumVertexElements; ++r) known.push_back(std::string(kVertexElementPrefix) + vertex_element_name(r));
    for (uint32_t t = 0; t < kNumDataTypes; ++t) known.push_back(std::string(kDataTypePrefix) + data_type_name(t));
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

// vs.1.x assembler and disassembler (see vs_asm.h).
#include "model/vs/vs_asm.h"

#include "model/decl/decl_tokens.h"

#include <algorithm>
#include <charconv>
#include <map>
#include <string>
#include <system_error>
#include <utility>

namespace vpsim::vs {

AsmError::AsmError(std::string file_, int line_, int column_, std::string message_)
    : std::runtime_error(file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) + ": error: " + message_),
      file(std::move(file_)),
      line(line_),
      column(column_),
      message(std::move(message_)) {}

std::string AsmWarning::to_string() const {
    return file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": warning: " + message;
}

namespace {

// The opcode named `lower_name`, or nullptr.
const OpInfo* find_op(const std::string& lower_name, uint32_t& opcode) {
    for (uint32_t op = 0; op <= OP_LOGP; ++op)
        if (const OpInfo* i = op_info(op); i && lower_name == i->name) {
            opcode = op;
            return i;
        }
    return nullptr;
}

char lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }
std::string lower(std::string_view s) {
    std::string r(s);
    for (char& c : r) c = lower(c);
    return r;
}
bool is_digit(char c) { return c >= '0' && c <= '9'; }
bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
bool is_ident(char c) { return is_alpha(c) || is_digit(c) || c == '_'; }
bool is_space(char c) { return c == ' ' || c == '\t' || c == '\r' || c == '\f' || c == '\v'; }

// Component index of a mask/swizzle letter (xyzw or rgba), -1 if none; `set` 0 = xyzw, 1 = rgba.
int component_of(char c, int& set) {
    static constexpr char kXyzw[] = "xyzw", kRgba[] = "rgba";
    c = lower(c);
    for (int i = 0; i < 4; ++i) {
        if (c == kXyzw[i]) return set = 0, i;
        if (c == kRgba[i]) return set = 1, i;
    }
    return -1;
}

std::string signature(const OpInfo& e) {
    std::string s = "dst";
    if (e.sources == 1) s += ", src";
    else
        for (int i = 0; i < e.sources; ++i) s += ", src" + std::to_string(i);
    return s;
}

std::string to_chars_float(float f) {
    char buf[64];
    const auto r = std::to_chars(buf, buf + sizeof buf, f);
    return std::string(buf, r.ptr);
}

// A parsed register operand.
struct Reg {
    RegType type = REG_TEMP;
    uint32_t num = 0;
    bool relative = false;
    size_t col = 0;  // 0-based position of the register name in the line
};

class Assembler {
public:
    Assembler(std::string_view text, std::string_view file, const AsmOptions& options,
              const std::vector<SourceLine>* origins = nullptr)
        : file_(file), text_(text), const_count_(options.const_count), d3d9_flag_(options.d3d9), origins_(origins) {}

    AsmResult run() {
        if (text_.compare(0, 3, "\xEF\xBB\xBF") == 0) text_.erase(0, 3);  // UTF-8 byte order mark
        blank_comments();
        size_t start = 0;
        lineno_ = 0;
        while (start <= text_.size()) {
            const size_t nl = text_.find('\n', start);
            const size_t end = nl == std::string::npos ? text_.size() : nl;
            ++lineno_;
            line_ = std::string_view(text_).substr(start, end - start);
            pos_ = 0;
            parse_line();
            if (nl == std::string::npos) break;
            start = nl + 1;
        }
        if (!version_seen_) {
            pos_ = 0;
            line_ = {};
            fail(0, "expected the version line 'vs.1.0' or 'vs.1.1'; the input has none");
        }
        finish();
        return std::move(result_);
    }

private:
    std::string file_;
    std::string text_;  // comments replaced by spaces (newlines kept), so positions stay
    uint32_t const_count_;
    bool d3d9_flag_;               // AsmOptions::d3d9
    const std::vector<SourceLine>* origins_;  // preprocessed text: where each line came from
    bool d3d9_spelling_ = false;   // the version line reads vs_1_1
    std::string_view line_;
    int lineno_ = 0;
    size_t pos_ = 0;
    bool version_seen_ = false;
    uint32_t version_ = kVersion11;
    AsmResult result_;
    std::map<uint32_t, int> def_lines_;

    // The file and line a line of the text came from (itself unless preprocessed).
    SourceLine origin(int line) const {
        if (origins_ && line >= 1 && size_t(line) <= origins_->size()) return (*origins_)[size_t(line - 1)];
        if (origins_ && !origins_->empty()) return origins_->back();
        return {file_, line};
    }
    [[noreturn]] void fail(size_t col, const std::string& message) const {
        const SourceLine o = origin(lineno_);
        throw AsmError(o.file, o.line, int(col) + 1, message);
    }
    [[noreturn]] void fail_at_line(int line, int col, const std::string& message) const {
        const SourceLine o = origin(line);
        throw AsmError(o.file, o.line, col, message);
    }
    void warn(size_t col, std::string message) {
        const SourceLine o = origin(lineno_);
        result_.warnings.push_back({o.file, o.line, int(col) + 1, std::move(message)});
    }

    // `;` and `//` to the end of the line and `/* */` become spaces; newlines stay.
    void blank_comments() {
        int line = 1, col = 1;
        for (size_t i = 0; i < text_.size(); ++i) {
            const char c = text_[i];
            if (c == ';' || (c == '/' && i + 1 < text_.size() && text_[i + 1] == '/')) {
                while (i < text_.size() && text_[i] != '\n') text_[i++] = ' ';
                --i;  // the loop's ++i lands on the newline
                continue;
            }
            if (c == '/' && i + 1 < text_.size() && text_[i + 1] == '*') {
                const int l0 = line, c0 = col;
                text_[i] = text_[i + 1] = ' ';
                size_t j = i + 2;
                col += 2;
                while (j < text_.size() && !(text_[j] == '*' && j + 1 < text_.size() && text_[j + 1] == '/')) {
                    if (text_[j] == '\n') ++line, col = 1;
                    else text_[j] = ' ', ++col;
                    ++j;
                }
                if (j >= text_.size()) fail_at_line(l0, c0, "unterminated /* comment");
                text_[j] = text_[j + 1] = ' ';
                col += 2;
                i = j + 1;
                continue;
            }
            if (c == '\n') ++line, col = 1;
            else ++col;
        }
    }

    // ---- Scanning within the current line ----
    void skip_ws() {
        while (pos_ < line_.size() && is_space(line_[pos_])) ++pos_;
    }
    bool at_end() {
        skip_ws();
        return pos_ >= line_.size();
    }
    char peek() const { return pos_ < line_.size() ? line_[pos_] : '\0'; }
    std::string_view ident() {
        const size_t s = pos_;
        while (pos_ < line_.size() && is_ident(line_[pos_])) ++pos_;
        return line_.substr(s, pos_ - s);
    }
    // What stands at `p`, for "found ..." in messages.
    std::string found_at(size_t p) const {
        while (p < line_.size() && is_space(line_[p])) ++p;
        if (p >= line_.size()) return "the end of the line";
        size_t e = p;
        while (e < line_.size() && is_ident(line_[e])) ++e;
        if (e == p) e = p + 1;
        return "'" + std::string(line_.substr(p, e - p)) + "'";
    }
    std::string found() {
        skip_ws();
        return found_at(pos_);
    }

    // ---- Lines ----
    void parse_line() {
        if (at_end()) return;
        const size_t start = pos_;
        bool coissue = false;
        if (peek() == '+') {
            coissue = true;
            ++pos_;
            skip_ws();
        }
        const size_t op_col = pos_;
        const std::string id = lower(ident());
        if (id.empty()) fail(pos_, std::string(coissue ? "expected an instruction after '+'" : "expected an instruction") +
                                       ", found " + found());
        if (id == "vs" || id.rfind("vs_", 0) == 0 || id == "ps" || id.rfind("ps_", 0) == 0) {
            if (coissue) fail(start, "'+' cannot prefix the version line");
            return parse_version(op_col);
        }
        if (!version_seen_)
            fail(op_col, "expected the version line 'vs.1.0' or 'vs.1.1' first, found '" +
                             std::string(line_.substr(op_col, pos_ - op_col)) + "'");
        if (id == "def") {
            if (coissue) fail(start, "'+' cannot prefix def");
            return parse_def();
        }
        if (id.rfind("dcl_", 0) == 0 || id == "dcl") {
            if (coissue) fail(start, "'+' cannot prefix a dcl_ line");
            return parse_dcl(op_col, id);
        }
        uint32_t opcode = 0;
        const OpInfo* e = find_op(id, opcode);
        if (!e) fail(op_col, "unknown instruction '" + std::string(line_.substr(op_col, pos_ - op_col)) + "'");
        parse_instruction(opcode, *e, coissue, start);
    }

    void parse_version(size_t col) {
        size_t e = col;
        while (e < line_.size() && !is_space(line_[e])) ++e;
        const std::string v = lower(line_.substr(col, e - col));
        pos_ = e;
        if (v.rfind("ps", 0) == 0)
            fail(col, "'" + std::string(line_.substr(col, e - col)) +
                          "' is a pixel shader version; expected vs.1.0 or vs.1.1");
        uint32_t version = 0;
        if (v == "vs.1.0" || v == "vs_1_0") version = kVersion10;
        else if (v == "vs.1.1" || v == "vs_1_1") version = kVersion11;
        else fail(col, "unsupported version '" + std::string(line_.substr(col, e - col)) + "': expected vs.1.0 or vs.1.1");
        if (version_seen_) fail(col, "a second version line (the version comes once, first)");
        version_seen_ = true;
        version_ = version;
        d3d9_spelling_ = v == "vs_1_1";
        if (!at_end()) fail(pos_, "unexpected " + found() + " after the version");
    }

    uint32_t parse_number(const char* what) {
        skip_ws();
        const size_t s = pos_;
        while (pos_ < line_.size() && is_digit(line_[pos_])) ++pos_;
        if (s == pos_) fail(s, std::string("expected ") + what + ", found " + found_at(s));
        if (pos_ - s > 6) fail(s, "number " + std::string(line_.substr(s, pos_ - s)) + " is too large");
        return uint32_t(std::stoul(std::string(line_.substr(s, pos_ - s))));
    }

    // Range of a register type for messages and checks; count 0 = not range-checked here.
    struct Range {
        uint32_t count;
        const char* what;
    };
    Range range_of(RegType t) const {
        switch (t) {
        case REG_TEMP: return {kNumTemps, "temporaries are r0..r11"};
        case REG_INPUT: return {kNumInputs, "inputs are v0..v15"};
        case REG_CONST: return {const_limit(), nullptr};
        case REG_ADDR: return {1, "the address register is a0"};
        case REG_RASTOUT: return {3, "oPos, oFog, oPts"};
        case REG_ATTROUT: return {2, "color outputs are oD0, oD1"};
        case REG_TEXCRDOUT: return {kNumTexcoords, "texture coordinate outputs are oT0..oT7"};
        }
        return {0, ""};
    }
    uint32_t const_limit() const { return const_count_ > 2048 ? 2048 : const_count_; }
    std::string const_range_text() const {
        return "constants are c0..c" + std::to_string(const_limit() - 1) + " (" + std::to_string(const_limit()) +
               " constant registers)";
    }
    void check_range(RegType t, uint32_t num, size_t col, const std::string& text) const {
        const Range r = range_of(t);
        if (num >= r.count)
            fail(col, text + " is out of range: " + (t == REG_CONST ? const_range_text() : std::string(r.what)));
    }

    Reg parse_register(bool is_dst) {
        skip_ws();
        Reg r;
        r.col = pos_;
        const std::string_view raw = ident();
        const std::string id = lower(raw);
        auto expected = [&] {
            fail(r.col, std::string("expected a ") + (is_dst ? "destination" : "source") +
                            " register (r#, v#, c#, c[a0.x + n], a0, oPos, oFog, oPts, oD#, oT#), found " +
                            found_at(r.col));
        };
        if (id.empty()) expected();
        if (peek() == '[') {
            if (id != "c") {
                if (id == "r" || id == "v" || id == "a" || id == "od" || id == "ot")
                    fail(pos_, "relative addressing is only possible on constant registers (c[a0.x + n])");
                expected();
            }
            if (is_dst) fail(pos_, "relative addressing is only possible on source operands");
            parse_brackets(r);
            return r;
        }
        if (id == "opos" || id == "ofog" || id == "opts") {
            r.type = REG_RASTOUT;
            r.num = id == "opos" ? RAST_POS : id == "ofog" ? RAST_FOG : RAST_PTS;
            return r;
        }
        size_t d = id.size();
        while (d > 0 && is_digit(id[d - 1])) --d;
        const std::string prefix = id.substr(0, d), digits = id.substr(d);
        if (digits.empty() || prefix.empty()) expected();
        if (prefix == "r") r.type = REG_TEMP;
        else if (prefix == "v") r.type = REG_INPUT;
        else if (prefix == "c") r.type = REG_CONST;
        else if (prefix == "a") r.type = REG_ADDR;
        else if (prefix == "od") r.type = REG_ATTROUT;
        else if (prefix == "ot") r.type = REG_TEXCRDOUT;
        else expected();
        if (digits.size() > 6) fail(r.col, "register number " + digits + " is too large");
        r.num = uint32_t(std::stoul(digits));
        check_range(r.type, r.num, r.col, std::string(raw));
        return r;
    }

    // c[...]: a0.x and/or a number joined by '+'.
    void parse_brackets(Reg& r) {
        r.type = REG_CONST;
        ++pos_;  // '['
        bool have_a0 = false, have_num = false;
        size_t num_col = 0;
        for (;;) {
            skip_ws();
            const size_t t = pos_;
            if (is_digit(peek())) {
                if (have_num) fail(t, "expected a0.x, found a second offset");
                have_num = true;
                num_col = t;
                r.num = parse_number("an offset");
            } else if (is_alpha(peek())) {
                const std::string id = lower(ident());
                if (id != "a0") fail(t, "expected a0.x or a number in c[...], found " + found_at(t));
                if (have_a0) fail(t, "a0.x appears twice");
                if (peek() != '.') fail(pos_, "expected '.x' after a0 (relative addressing reads a0.x)");
                ++pos_;
                const size_t cc = pos_;
                const std::string comp = lower(ident());
                if (comp != "x") fail(cc, "relative addressing reads a0.x, found a0." + comp);
                have_a0 = true;
            } else {
                fail(t, "expected a0.x or a number in c[...], found " + found_at(t));
            }
            skip_ws();
            if (peek() == ']') {
                ++pos_;
                break;
            }
            if (peek() == '+') {
                ++pos_;
                continue;
            }
            if (peek() == '-') fail(pos_, "negative offsets cannot be encoded; expected '+' or ']'");
            fail(pos_, "expected '+' or ']', found " + found());
        }
        r.relative = have_a0;
        const std::string shown = have_a0 ? "relative offset " + std::to_string(r.num) : "c" + std::to_string(r.num);
        if (r.num >= const_limit()) fail(have_num ? num_col : r.col, shown + " is out of range: " + const_range_text());
    }

    // After a '.': write mask (`mask`) or swizzle components.
    uint32_t parse_components(bool mask) {
        ++pos_;  // '.'
        const size_t col = pos_;
        const std::string_view s = ident();
        if (s.empty())
            fail(col, std::string("expected ") + (mask ? "write mask" : "swizzle") +
                          " components (x, y, z, w) after '.', found " + found_at(col));
        int set = -1;
        uint32_t result = 0;
        int last = -1;
        for (size_t i = 0; i < s.size(); ++i) {
            int this_set = -1;
            const int c = component_of(s[i], this_set);
            if (c < 0)
                fail(col + i, "'" + std::string(1, s[i]) + "' is not a " + (mask ? "write mask" : "swizzle") +
                                  " component (x, y, z, w)");
            if (set >= 0 && this_set != set) fail(col + i, "do not mix xyzw and rgba component names");
            set = this_set;
            if (mask) {
                if (c <= last)
                    fail(col + i, "write mask components must be in the order x, y, z, w, each at most once");
                last = c;
                result |= 1u << c;
            } else {
                if (i >= 4) fail(col + i, "a swizzle has at most 4 components");
                result |= uint32_t(c) << (2 * i);
                last = c;
            }
        }
        if (!mask)
            for (size_t i = s.size(); i < 4; ++i) result |= uint32_t(last) << (2 * i);
        return result;
    }

    // No mask: `natural` (.xyzw, or what an m-instruction computes).
    Dst parse_dst(size_t& col, uint32_t natural) {
        skip_ws();
        if (peek() == '-') fail(pos_, "a destination cannot be negated");
        const Reg r = parse_register(true);
        col = r.col;
        Dst d;
        d.type = r.type;
        d.num = r.num;
        d.mask = peek() == '.' ? parse_components(true) : natural;
        return d;
    }

    struct SrcPos {
        size_t col;  // of the operand (its '-' when negated)
        Reg reg;
    };
    Src parse_src(SrcPos& sp) {
        skip_ws();
        sp.col = pos_;
        Src s;
        if (peek() == '-') {
            s.negate = true;
            ++pos_;
        }
        sp.reg = parse_register(false);
        s.type = sp.reg.type;
        s.num = sp.reg.num;
        s.relative = sp.reg.relative;
        if (peek() == '.') s.swizzle = parse_components(false);
        return s;
    }

    void parse_instruction(uint32_t opcode, const OpInfo& e, bool coissue, size_t start) {
        Instruction ins;
        ins.opcode = opcode;
        ins.coissue = coissue;
        ins.nsrc = e.sources;
        const std::string name = e.name;
        if (coissue)
            warn(start, "'+' (co-issue) is reserved in vertex shaders: the d3d8 profile rejects it (rule V12)");
        size_t dst_col = pos_;
        std::array<SrcPos, 3> sp{};
        if (e.has_dst) {
            if (at_end()) fail(pos_, "expected the operands of " + name + " (" + signature(e) + ")");
            ins.dst = parse_dst(dst_col, natural_mask(opcode));
            for (int i = 0; i < e.sources; ++i) {
                skip_ws();
                if (peek() != ',')
                    fail(pos_, "expected ',' and " + std::to_string(e.sources - i) + " more source operand" +
                                   (e.sources - i > 1 ? "s" : "") + " (" + name + " " + signature(e) + "), found " +
                                   found());
                ++pos_;
                ins.src[size_t(i)] = parse_src(sp[size_t(i)]);
            }
        }
        if (!at_end()) {
            if (!e.has_dst) fail(pos_, "nop takes no operands, found " + found());
            if (peek() == ',') fail(pos_, "too many operands: " + name + " takes " + signature(e));
            fail(pos_, "unexpected " + found() + " after the last operand");
        }
        // A D3D9 source declares every input it reads.
        if (result_.d3d9)
            for (int i = 0; i < e.sources; ++i) {
                const Src& s = ins.src[size_t(i)];
                if (s.type != REG_INPUT) continue;
                const uint32_t rows = i == 1 && e.matrix_rows > 0 ? uint32_t(e.matrix_rows) : 1;
                for (uint32_t k = 0; k < rows; ++k) {
                    bool declared = false;
                    for (const InputDcl& d : result_.dcls) declared = declared || d.reg == s.num + k;
                    if (!declared)
                        fail(sp[size_t(i)].reg.col, "v" + std::to_string(s.num + k) +
                                                        " is read but has no dcl_ line (a D3D9 source declares every "
                                                        "input it reads)");
                }
            }
        // Rows an m-instruction reads from src1 must exist.
        if (e.matrix_rows > 0) {
            const Src& s1 = ins.src[1];
            const bool ranged = s1.type == REG_TEMP || s1.type == REG_INPUT || s1.type == REG_CONST;
            const Range r = range_of(s1.type);
            if (ranged && s1.num + uint32_t(e.matrix_rows) > r.count) {
                auto row = [&](uint32_t n) {
                    return s1.relative ? "c[a0.x + " + std::to_string(n) + "]" : register_name(s1.type, n);
                };
                fail(sp[1].reg.col, name + " reads " + row(s1.num) + ".." + row(s1.num + uint32_t(e.matrix_rows) - 1) + ": " +
                                        (s1.type == REG_CONST ? const_range_text() : std::string(r.what)));
            }
        }
        // Forms the DX9 docs dislike (D3D8 accepts them).
        if (e.scalar) {
            const uint32_t sw = ins.src[0].swizzle;
            const bool replicate = ((sw & 3u) * 0x55u) == (sw & 0xFFu);
            if (!replicate)
                warn(sp[0].col, name + " reads one component: add a replicate swizzle (.x, .y, .z or .w); "
                                       "without one D3D8 reads the .w of the swizzled source");
            const bool single_out = opcode != OP_EXPP && opcode != OP_LOGP;
            const uint32_t m = ins.dst.mask & 0xF;
            if (single_out && (m & (m - 1)) != 0)
                warn(dst_col, name + " computes one value: the DX9 docs ask for a single-component write mask "
                                     "(D3D8 writes the value to every masked component)");
        }
        result_.program.code.push_back(ins);
        result_.instruction_lines.push_back(origin(lineno_).line);
        result_.instruction_files.push_back(origin(lineno_));
        result_.instruction_columns.push_back(int(start) + 1);
    }

    float parse_float() {
        skip_ws();
        const size_t s = pos_;
        bool neg = false;
        if (peek() == '-' || peek() == '+') {
            neg = peek() == '-';
            ++pos_;
        }
        const size_t b = pos_;
        while (pos_ < line_.size()) {
            const char c = line_[pos_];
            if (is_ident(c) || c == '.' ||
                ((c == '+' || c == '-') && pos_ > b && (lower(line_[pos_ - 1]) == 'e')))
                ++pos_;
            else
                break;
        }
        std::string t(line_.substr(b, pos_ - b));
        const std::string lt = lower(t);
        if (!t.empty() && (t.back() == 'f' || t.back() == 'F') && lt != "inf")
            t.pop_back();
        float f = 0;
        const auto r = std::from_chars(t.data(), t.data() + t.size(), f);
        if (t.empty() || r.ptr != t.data() + t.size() || r.ec == std::errc::invalid_argument)
            fail(s, "expected a number, found " + (pos_ > s ? "'" + std::string(line_.substr(s, pos_ - s)) + "'" : found_at(s)));
        if (r.ec == std::errc::result_out_of_range)
            fail(s, "number " + std::string(line_.substr(s, pos_ - s)) + " is out of the float range");
        return neg ? -f : f;
    }

    void parse_def() {
        skip_ws();
        if (at_end()) fail(pos_, "expected a constant register after def (def cN, x, y, z, w)");
        const size_t col = pos_;
        if (peek() == '-') fail(pos_, "def needs a constant register c#, found '-'");
        const Reg r = parse_register(true);
        if (r.type != REG_CONST) fail(r.col, "def needs a constant register c#, found " + found_at(r.col));
        if (peek() == '.') fail(pos_, "def takes no write mask (it sets all four components)");
        if (r.num > decl::kConstAddressMask)
            fail(col, "def c" + std::to_string(r.num) + ": a declaration's D3DVSD_CONST addresses only c0..c127");
        ConstDef d;
        d.reg = r.num;
        d.line = origin(lineno_).line;
        for (int i = 0; i < 4; ++i) {
            skip_ws();
            if (peek() != ',')
                fail(pos_, "expected ',' and " + std::to_string(4 - i) + " more value" + (4 - i > 1 ? "s" : "") +
                               " (def cN, x, y, z, w), found " + found());
            ++pos_;
            d.value[size_t(i)] = parse_float();
        }
        if (!at_end()) {
            if (peek() == ',') fail(pos_, "too many values: def takes cN, x, y, z, w");
            fail(pos_, "unexpected " + found() + " after the last value");
        }
        if (!result_.program.code.empty())
            warn(col, "def after the first instruction: the DX9 docs ask for defs before instructions");
        const auto it = def_lines_.find(d.reg);
        if (it != def_lines_.end())
            warn(col, "c" + std::to_string(d.reg) + " is defined again (first on line " + std::to_string(it->second) +
                          "): the declaration loads both, the later value wins");
        else
            def_lines_[d.reg] = origin(lineno_).line;
        result_.defs.push_back(d);
        result_.const_tokens.push_back(decl::D3DVSD_CONST(d.reg, 1));
        for (float v : d.value) result_.const_tokens.push_back(decl::float_bits(v));
    }

    // dcl_usage[n] vN[.mask] (D3D9 vs_1_1).
    void parse_dcl(size_t col, const std::string& id) {
        const std::string written(line_.substr(col, pos_ - col));
        const bool d3d9 = d3d9_flag_ || (d3d9_spelling_ && version_ == kVersion11);
        if (!d3d9)
            fail(col, "'" + written + "' is a D3D9 input declaration (dcl_usage vN, from a D3D9 vs_1_1 source); D3D8 "
                      "shaders have none, their inputs come from the vertex declaration. Assemble it with --d3d9 "
                      "(vpsim asm --d3d9 --decl-out FILE writes the D3D8 declaration its dcl_ lines make)");
        if (version_ != kVersion11) fail(col, "dcl_ lines belong to D3D9 vs_1_1 sources, not vs.1.0");
        if (!result_.program.code.empty())
            fail(col, "'" + written + "' after the first instruction: D3D9 puts every dcl_ line before the instructions");
        std::string usage = id.size() > 4 ? id.substr(4) : "";
        size_t d = usage.size();
        while (d > 0 && is_digit(usage[d - 1])) --d;
        const std::string digits = usage.substr(d);
        usage.resize(d);
        const auto& names = dcl_usages();
        if (std::find(names.begin(), names.end(), usage) == names.end()) {
            std::string list;
            for (const auto& n : names) list += (list.empty() ? "" : ", ") + n;
            fail(col, "unknown dcl_ usage '" + written + "': expected dcl_ followed by one of " + list +
                          " and an optional index (dcl_texcoord1)");
        }
        InputDcl dcl;
        dcl.usage = usage;
        if (digits.size() > 2 || (!digits.empty() && std::stoul(digits) > 15))
            fail(col + 4 + d, "usage index " + digits + " is out of range (0..15)");
        dcl.index = digits.empty() ? 0 : uint32_t(std::stoul(digits));
        if (at_end()) fail(pos_, "expected an input register v# after " + written);
        const Reg r = parse_register(true);
        if (r.type != REG_INPUT) fail(r.col, written + " declares an input register v#, found " + found_at(r.col));
        if (peek() == '.') dcl.mask = parse_components(true);
        if (!at_end()) fail(pos_, "unexpected " + found() + " after the register");
        dcl.reg = r.num;
        dcl.line = origin(lineno_).line;
        for (const InputDcl& o : result_.dcls) {
            if (o.reg == dcl.reg)
                fail(r.col, "v" + std::to_string(dcl.reg) + " is declared twice (first on line " + std::to_string(o.line) + ")");
            if (o.usage == dcl.usage && o.index == dcl.index)
                fail(col, "usage " + dcl.usage + std::to_string(dcl.index) + " is declared twice (first on line " +
                              std::to_string(o.line) + ")");
        }
        result_.dcls.push_back(dcl);
        result_.d3d9 = true;
    }

    void finish() {
        Program& p = result_.program;
        p.version = version_;
        std::vector<uint32_t>& t = result_.bytecode;
        t.push_back(version_);
        for (Instruction& ins : p.code) {
            ins.token_index = uint32_t(t.size());
            t.push_back(encode_instruction_token(ins.opcode, ins.coissue));
            if (op_info(ins.opcode)->has_dst) t.push_back(encode_dst(ins.dst));
            for (int i = 0; i < ins.nsrc; ++i) t.push_back(encode_src(ins.src[size_t(i)]));
        }
        t.push_back(kEndToken);
        p.tokens = t;
    }
};

// Comment blocks in [from, to) of the tokens, printed as assembler comments.
void print_comments(const std::vector<uint32_t>& t, size_t from, size_t to, std::string& out) {
    size_t i = from;
    while (i < to && i < t.size()) {
        if ((t[i] & 0xFFFFu) != kCommentOpcode || (t[i] & 0x80000000u)) {
            if (t[i] == kEndToken) return;
            ++i;
            continue;
        }
        const uint32_t n = (t[i] >> 16) & 0x7FFFu;
        out += "; comment: " + std::to_string(n) + (n == 1 ? " DWORD" : " DWORDs");
        std::string text;
        bool printable = n > 0 && i + n < t.size();
        bool ended = false;
        for (uint32_t k = 0; printable && k < n; ++k)
            for (int b = 0; b < 4; ++b) {
                const char c = char((t[i + 1 + k] >> (8 * b)) & 0xFF);
                if (c == '\0') ended = true;
                else if (ended || c < 0x20 || c > 0x7E) printable = false;
                else text += c;
            }
        if (printable && !text.empty()) out += " \"" + text + "\"";
        out += "\n";
        i += 1 + n;
    }
}

}  // namespace

int opcode_from_name(std::string_view name) {
    uint32_t op = 0;
    return find_op(lower(name), op) ? int(op) : -1;
}

const std::vector<std::string>& dcl_usages() {
    static const std::vector<std::string> names{"position", "blendweight", "blendindices", "normal", "psize",
                                                "texcoord", "tangent", "binormal", "tessfactor", "positiont",
                                                "color", "fog", "depth", "sample"};
    return names;
}

AsmResult assemble(std::string_view text, std::string_view filename, uint32_t const_count) {
    AsmOptions o;
    o.const_count = const_count;
    return Assembler(text, filename, o).run();
}

AsmResult assemble(std::string_view text, std::string_view filename, const AsmOptions& options) {
    const PreprocOptions& pp = options.preprocess;
    if (!pp.enabled || (pp.empty() && !has_directives(text))) return Assembler(text, filename, options).run();
    const Preprocessed p = preprocess(text, filename, options.path, "", pp);
    AsmResult r = Assembler(p.text, filename, options, &p.lines).run();
    std::vector<AsmWarning> w;
    for (const PreprocWarning& x : p.warnings) w.push_back({x.where.file, x.where.line, 1, x.message});
    r.warnings.insert(r.warnings.begin(), w.begin(), w.end());
    return r;
}

// ---------------------------------------------------------------------------------
// Disassembler
// ---------------------------------------------------------------------------------

std::string register_name(RegType type, uint32_t num) {
    const std::string n = std::to_string(num);
    switch (type) {
    case REG_TEMP: return "r" + n;
    case REG_INPUT: return "v" + n;
    case REG_CONST: return "c" + n;
    case REG_ADDR: return "a" + n;
    case REG_RASTOUT:
        if (num == RAST_POS) return "oPos";
        if (num == RAST_FOG) return "oFog";
        if (num == RAST_PTS) return "oPts";
        return "oRast" + n;  // no such register (does not assemble)
    case REG_ATTROUT: return "oD" + n;
    case REG_TEXCRDOUT: return "oT" + n;
    }
    return "type" + std::to_string(unsigned(type)) + "_" + n;  // does not assemble
}

std::string swizzle_suffix(uint32_t swizzle) {
    swizzle &= 0xFFu;
    if (swizzle == kSwizzleIdentity) return "";
    auto comp = [&](int i) { return (swizzle >> (2 * i)) & 3u; };
    int len = 4;
    for (int l = 1; l < 4; ++l) {
        bool repeats = true;
        for (int i = l; i < 4; ++i) repeats = repeats && comp(i) == comp(l - 1);
        if (repeats) {
            len = l;
            break;
        }
    }
    std::string s = ".";
    for (int i = 0; i < len; ++i) s += "xyzw"[comp(i)];
    return s;
}

std::string mask_suffix(uint32_t mask) {
    mask &= 0xFu;
    if (mask == 0xFu) return "";
    std::string s = ".";
    for (int i = 0; i < 4; ++i)
        if (mask & (1u << i)) s += "xyzw"[i];
    return s;
}

std::string format_dst(const Dst& d) { return register_name(d.type, d.num) + mask_suffix(d.mask); }

std::string format_src(const Src& s) {
    std::string r = s.negate ? "-" : "";
    if (s.relative) {
        std::string base = register_name(s.type, 0);
        base.pop_back();  // the register letters without the number
        r += base + "[a0.x + " + std::to_string(s.num) + "]";
    } else {
        r += register_name(s.type, s.num);
    }
    return r + swizzle_suffix(s.swizzle);
}

std::string format_instruction(const Instruction& ins) {
    const OpInfo* e = op_info(ins.opcode);
    std::string s = ins.coissue ? "+" : "";
    s += e ? e->name : "op" + std::to_string(ins.opcode);
    const bool has_dst = e ? e->has_dst : true;
    // An m-instruction's .xyzw is spelled out where the bare form means its narrower natural mask.
    if (has_dst) s += " " + format_dst(ins.dst) + ((ins.dst.mask & 0xFu) == 0xFu && natural_mask(ins.opcode) != 0xFu ? ".xyzw" : "");
    for (int i = 0; i < ins.nsrc && i < 3; ++i) s += ", " + format_src(ins.src[size_t(i)]);
    return s;
}

std::string format_def(const ConstDef& d) {
    std::string s = "def c" + std::to_string(d.reg);
    for (float v : d.value) s += ", " + to_chars_float(v);
    return s;
}

std::string disassemble(const Program& p, const std::vector<ConstDef>& defs) {
    std::string out = p.version == kVersion10 ? "vs.1.0\n" : "vs.1.1\n";
    for (const ConstDef& d : defs) out += format_def(d) + "\n";
    const std::vector<uint32_t>& t = p.tokens;
    size_t cursor = 1;
    for (const Instruction& ins : p.code) {
        if (!t.empty() && ins.token_index >= cursor && ins.token_index <= t.size()) {
            print_comments(t, cursor, ins.token_index, out);
            const OpInfo* e = op_info(ins.opcode);
            cursor = ins.token_index + 1 + ((e == nullptr || e->has_dst) ? 1 : 0) + size_t(ins.nsrc);
        }
        out += format_instruction(ins) + "\n";
    }
    if (!t.empty()) print_comments(t, cursor, t.size(), out);
    return out;
}

std::string disassemble_tokens(const std::vector<uint32_t>& tokens) { return disassemble(decode_bytecode(tokens)); }

}  // namespace vpsim::vs

// Loading and saving declaration token arrays (see decl_io.h).
#include "model/decl/decl_io.h"

#include "model/common/file_util.h"


#include <cerrno>
#include <cstdio>
#include <cstring>
#include <utility>

#include "model/decl/decl_text.h"
#include "model/decl/decl_text_lex.h"

namespace vpsim::decl {

InputError::InputError(std::string file_, std::string message_)
    : std::runtime_error(file_ + ": " + message_), file(std::move(file_)), message(std::move(message_)) {}

InputError::InputError(std::string file_, int line_, int column_, std::string message_)
    : std::runtime_error(file_ + ":" + std::to_string(line_) + ":" + std::to_string(column_) + ": error: " +
                         message_),
      file(std::move(file_)),
      line(line_),
      column(column_),
      message(std::move(message_)) {}

namespace {

constexpr const char* kStdinName = "<stdin>";

std::string display_name(std::string_view path) {
    if (path.empty()) return "<input>";
    if (path == "-") return kStdinName;
    return std::string(path);
}

std::string extension(std::string_view path) {
    const size_t slash = path.find_last_of("/\\");
    const std::string_view base = slash == std::string_view::npos ? path : path.substr(slash + 1);
    const size_t dot = base.rfind('.');
    if (dot == std::string_view::npos || dot == 0) return {};
    std::string ext(base.substr(dot + 1));
    for (char& c : ext) c = text::to_lower(c);
    return ext;
}

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; }

struct HexWord {
    std::string_view text;
    int line;
    int column;
};

// Splits hex-form text into words, skipping whitespace and '#' / '//' comments.
std::vector<HexWord> hex_words(std::string_view s) {
    std::vector<HexWord> words;
    int line = 1, col = 1;
    size_t i = 0;
    auto advance = [&] {
        if (s[i] == '\n') ++line, col = 1;
        else ++col;
        ++i;
    };
    auto comment_start = [&](size_t k) { return s[k] == '#' || (s[k] == '/' && k + 1 < s.size() && s[k + 1] == '/'); };
    while (i < s.size()) {
        if (is_space(s[i])) {
            advance();
        } else if (comment_start(i)) {
            while (i < s.size() && s[i] != '\n') advance();
        } else {
            const size_t start = i;
            const int l = line, c = col;
            while (i < s.size() && !is_space(s[i]) && !comment_start(i)) advance();
            words.push_back({s.substr(start, i - start), l, c});
        }
    }
    return words;
}

// 1..8 hex digits with optional 0x.
bool hex_word_value(std::string_view w, uint32_t& v) {
    if (w.size() >= 2 && w[0] == '0' && (w[1] == 'x' || w[1] == 'X')) w.remove_prefix(2);
    if (w.empty() || w.size() > 8) return false;
    v = 0;
    for (char c : w) {
        if (!text::is_hex_digit(c)) return false;
        v = v * 16 + uint32_t(text::hex_value(c));
    }
    return true;
}

bool valid_utf8_text(std::string_view s) {
    size_t i = 0;
    while (i < s.size()) {
        const unsigned char c = static_cast<unsigned char>(s[i]);
        if (c < 0x80) {
            if (c < 0x20 && !is_space(char(c))) return false;  // NUL and other control bytes
            if (c == 0x7F) return false;
            ++i;
            continue;
        }
        size_t n;
        uint32_t cp;
        if ((c & 0xE0) == 0xC0) n = 1, cp = c & 0x1F;
        else if ((c & 0xF0) == 0xE0) n = 2, cp = c & 0x0F;
        else if ((c & 0xF8) == 0xF0) n = 3, cp = c & 0x07;
        else return false;
        for (size_t k = 1; k <= n; ++k) {
            if (i + k >= s.size()) return false;
            const unsigned char d = static_cast<unsigned char>(s[i + k]);
            if ((d & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (d & 0x3F);
        }
        const uint32_t min = n == 1 ? 0x80 : n == 2 ? 0x800 : 0x10000;
        if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return false;
        i += n + 1;
    }
    return true;
}

bool looks_like_bare_hex(std::string_view s) {
    const auto words = hex_words(s);
    if (words.empty()) return false;
    for (const HexWord& w : words) {
        if (w.text.size() != 8) return false;
        for (char c : w.text)
            if (!text::is_hex_digit(c)) return false;
    }
    return true;
}

std::vector<uint32_t> parse_text_io(std::string_view text, const std::string& name) {
    try {
        return parse_text(text, name);
    } catch (const TextError& e) {
        throw InputError(e.file, e.line, e.column, e.message);
    }
}

// Standard output, or a file that appears complete or not at all.
void write_bytes(const std::string& path, const std::string& bytes) {
    if (path != "-") {
        try {
            write_file_atomic(path, bytes);
        } catch (const OutputError& e) {
            throw InputError(path, std::string(e.what()).substr(path.size() + 2));
        }
        return;
    }
    const size_t wrote = bytes.empty() ? 0 : std::fwrite(bytes.data(), 1, bytes.size(), stdout);
    int err = wrote == bytes.size() ? 0 : errno;
    if (std::fflush(stdout) != 0 && !err) err = errno;
    if (wrote != bytes.size() || err)
        throw InputError(display_name(path), std::string("cannot write: ") + std::strerror(err ? err : EIO));
}

}  // namespace

TokenFormat format_for_path(std::string_view path) {
    const std::string ext = extension(path);
    if (ext == "bin") return TokenFormat::Binary;
    if (ext == "hex") return TokenFormat::Hex;
    if (ext == "h" || ext == "hpp" || ext == "c" || ext == "cc" || ext == "cpp" || ext == "inl")
        return TokenFormat::CArray;
    return TokenFormat::Text;
}

std::vector<uint32_t> parse_bin(std::string_view bytes, std::string_view filename) {
    const std::string name = display_name(filename);
    if (bytes.size() % 4 != 0)
        throw InputError(name, "size " + std::to_string(bytes.size()) +
                                   " bytes is not a multiple of 4 (a binary declaration is little-endian DWORDs)");
    std::vector<uint32_t> out(bytes.size() / 4);
    for (size_t i = 0; i < out.size(); ++i) {
        const auto b = [&](size_t k) { return uint32_t(static_cast<unsigned char>(bytes[i * 4 + k])); };
        out[i] = b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24;
    }
    return out;
}

std::vector<uint32_t> parse_hex(std::string_view text, std::string_view filename) {
    const std::string name = display_name(filename);
    std::vector<uint32_t> out;
    for (const HexWord& w : hex_words(text)) {
        uint32_t v;
        if (!hex_word_value(w.text, v))
            throw InputError(name, w.line, w.column,
                             "bad hex word '" + std::string(w.text) +
                                 "': expected 1 to 8 hex digits with an optional 0x prefix");
        out.push_back(v);
    }
    return out;
}

std::vector<uint32_t> load_tokens(const std::string& path) {
    const std::string name = display_name(path);
    std::string data, why;
    if (!read_input_file(path, data, why)) throw InputError(name, why);
    if (path == "-") {
        if (!valid_utf8_text(data)) return parse_bin(data, name);
        if (looks_like_bare_hex(data)) return parse_hex(data, name);
        return parse_text_io(data, name);
    }
    switch (format_for_path(path)) {
    case TokenFormat::Binary: return parse_bin(data, name);
    case TokenFormat::Hex: return parse_hex(data, name);
    case TokenFormat::Text:
    case TokenFormat::CArray: break;
    }
    return parse_text_io(data, name);
}

void write_tokens_bin(const std::string& path, const std::vector<uint32_t>& tokens) {
    std::string bytes(tokens.size() * 4, '\0');
    for (size_t i = 0; i < tokens.size(); ++i)
        for (size_t k = 0; k < 4; ++k) bytes[i * 4 + k] = char((tokens[i] >> (8 * k)) & 0xFF);
    write_bytes(path, bytes);
}

void write_tokens(const std::string& path, const std::vector<uint32_t>& tokens) {
    if (path == "-") return write_bytes(path, to_text(tokens));
    switch (format_for_path(path)) {
    case TokenFormat::Binary: return write_tokens_bin(path, tokens);
    case TokenFormat::Hex: return write_bytes(path, to_hex(tokens));
    case TokenFormat::CArray: return write_bytes(path, to_c_array(tokens));
    case TokenFormat::Text: break;
    }
    write_bytes(path, to_text(tokens));
}

}  // namespace vpsim::decl

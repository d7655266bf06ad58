// What the declaration text printer (decl_text_print.cpp) and parser (decl_text_parse.cpp) of
// decl_text.h share: C's character classes, the numeric literal reader (the printer prints a
// payload float as a literal only when it reads back to the same bits) and the declaration
// specifiers a C array may start with (which the printer's array name must not be).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace vpsim::decl::text {

inline bool is_ident_start(char c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || c == '_'; }
inline bool is_digit(char c) { return c >= '0' && c <= '9'; }
inline bool is_ident_char(char c) { return is_ident_start(c) || is_digit(c); }
inline bool is_hex_digit(char c) { return is_digit(c) || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F'); }
inline char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c; }  // ASCII only
inline int hex_value(char c) {
    if (is_digit(c)) return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return c - 'A' + 10;
}

// The value of a numeric literal's spelling (without sign).
struct Number {
    bool is_float = false;
    uint32_t bits = 0;  // integer value, or the float's IEEE bits
};

// Classifies a pp-number spelling (without sign). On failure returns nullopt and sets err.
std::optional<Number> parse_number(std::string_view s, std::string& err);

// const, static, DWORD, uint32_t, ...: the words parse_text() accepts before a C array's name.
bool is_specifier(std::string_view s);

}  // namespace vpsim::decl::text

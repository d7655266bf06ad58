#include "model/decl/decl_text_lex.h"

#include "model/decl/decl_tokens.h"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <system_error>
#include <vector>

namespace vpsim::decl::text {

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

namespace {
const std::vector<std::string_view>& specifier_words() {
    static const std::vector<std::string_view> w = {"const", "static", "constexpr", "extern", "CONST", "DWORD",
                                                    "UINT",  "ULONG",  "uint32_t",  "unsigned", "long", "int"};
    return w;
}
}  // namespace

bool is_specifier(std::string_view s) {
    const auto& w = specifier_words();
    return std::find(w.begin(), w.end(), s) != w.end();
}

}  // namespace vpsim::decl::text

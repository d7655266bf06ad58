// Base64 (base64.h): table-driven, four characters to three bytes per step.
#include "model/common/base64.h"

#include <fmt/format.h>

namespace vpsim {

namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

// Each character's 6-bit value, -1 for a character outside the alphabet ('=' included).
struct DecodeTable {
    int8_t v[256];
    constexpr DecodeTable() : v() {
        for (int c = 0; c < 256; ++c) v[c] = -1;
        for (int i = 0; i < 64; ++i) v[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int8_t>(i);
    }
};
constexpr DecodeTable kDecode;

// The same shifted into place for each of a group's four characters (the 24 bits of three bytes),
// with bit 31 set for a character outside the alphabet: a group is the OR of four loads.
struct GroupTables {
    uint32_t at[4][256];
    constexpr GroupTables() : at() {
        for (int k = 0; k < 4; ++k)
            for (int c = 0; c < 256; ++c)
                at[k][c] = kDecode.v[c] < 0 ? 0x80000000u : uint32_t(kDecode.v[c]) << (18 - 6 * k);
    }
};
constexpr GroupTables kGroup;

std::string shown(unsigned char c) {
    if (c >= 0x20 && c < 0x7F) return c == '\'' ? "\"'\"" : fmt::format("'{}'", char(c));
    return fmt::format("byte 0x{:02X}", c);
}

bool fail(Base64Error& e, size_t offset, std::string rule) {
    e.offset = offset;
    e.rule = std::move(rule);
    return false;
}

// The first character from s (offset `at`) outside the alphabet, as an error.
bool bad_character(const unsigned char* s, size_t at, Base64Error& e) {
    size_t k = 0;
    while (kDecode.v[s[k]] >= 0) ++k;
    if (s[k] == '=')
        return fail(e, at + k, "'=' where a character of data must be: '=' is padding, only the last one or two "
                               "characters of the string");
    return fail(e, at + k,
                fmt::format("{} is not in the base64 alphabet (A-Z, a-z, 0-9, '+', '/'; '=' padding at the end)",
                            shown(s[k])));
}

}  // namespace

bool base64_decode(const char* text, size_t n, std::vector<uint8_t>& out, Base64Error& e) {
    const auto* s = reinterpret_cast<const unsigned char*>(text);
    if (n % 4) {
        // A stray character (a line break, say) is the likelier fault: named before the length.
        for (size_t i = 0; i < n; ++i)
            if (kDecode.v[s[i]] < 0 && s[i] != '=') return bad_character(s + i, i, e);
        return fail(e, n,
                    fmt::format("{} characters is not a multiple of 4: base64 here is padded with '=' to whole "
                                "4-character groups (RFC 4648)",
                                n));
    }
    out.resize(n / 4 * 3);
    if (n == 0) return true;
    uint8_t* d = out.data();
    const int8_t* t = kDecode.v;
    // Every group but the last: four characters, none of them padding.
    const size_t last = n - 4;
    const auto& g0 = kGroup.at[0];
    const auto& g1 = kGroup.at[1];
    const auto& g2 = kGroup.at[2];
    const auto& g3 = kGroup.at[3];
    for (size_t i = 0; i < last; i += 4, d += 3) {
        const uint32_t w = g0[s[i]] | g1[s[i + 1]] | g2[s[i + 2]] | g3[s[i + 3]];
        if (w & 0x80000000u) return bad_character(s + i, i, e);
        d[0] = uint8_t(w >> 16);
        d[1] = uint8_t(w >> 8);
        d[2] = uint8_t(w);
    }
    // The last group: "xxxx", "xxx=" (two bytes) or "xx==" (one byte).
    const unsigned char* g = s + last;
    const int pad = g[3] != '=' ? 0 : g[2] != '=' ? 1 : 2;
    for (int k = 0; k < 4 - pad; ++k)
        if (t[g[k]] < 0) return bad_character(g + k, last + k, e);
    const uint32_t w = uint32_t(t[g[0]]) << 18 | uint32_t(t[g[1]]) << 12 | (pad < 2 ? uint32_t(t[g[2]]) << 6 : 0) |
                       (pad < 1 ? uint32_t(t[g[3]]) : 0);
    // The bits after the last byte: zero in the one encoding of these bytes (RFC 4648, 3.5).
    if (w & (pad == 2 ? 0xFFFFu : pad == 1 ? 0xFFu : 0u))
        return fail(e, last + 3 - pad,
                    fmt::format("{} before the padding sets bits past the last byte: they must be zero (the one base64 "
                                "encoding of these bytes, RFC 4648 section 3.5)",
                                shown(g[3 - pad])));
    d[0] = uint8_t(w >> 16);
    if (pad < 2) d[1] = uint8_t(w >> 8);
    if (pad < 1) d[2] = uint8_t(w);
    out.resize(out.size() - size_t(pad));
    return true;
}

std::string base64_encode(const uint8_t* p, size_t n) {
    std::string s((n + 2) / 3 * 4, '=');
    char* o = s.data();
    size_t i = 0;
    for (; i + 3 <= n; i += 3, o += 4) {
        const uint32_t w = uint32_t(p[i]) << 16 | uint32_t(p[i + 1]) << 8 | p[i + 2];
        o[0] = kAlphabet[w >> 18];
        o[1] = kAlphabet[(w >> 12) & 63];
        o[2] = kAlphabet[(w >> 6) & 63];
        o[3] = kAlphabet[w & 63];
    }
    if (i < n) {  // one or two bytes left: "xx==" or "xxx="
        const uint32_t w = uint32_t(p[i]) << 16 | (i + 1 < n ? uint32_t(p[i + 1]) << 8 : 0);
        o[0] = kAlphabet[w >> 18];
        o[1] = kAlphabet[(w >> 12) & 63];
        if (i + 1 < n) o[2] = kAlphabet[(w >> 6) & 63];
    }
    return s;
}

}  // namespace vpsim

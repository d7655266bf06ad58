// Base64 (RFC 4648, section 4: the standard alphabet A-Z a-z 0-9 + /, '=' padding required), the
// compact form of a scene's buffer bytes (docs/scenes.md, "Buffers"): a recorded frame range holds
// tens of megabytes of them, which as a JSON array cost one parsed value per byte.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vpsim {

// Why a string is not strict base64: `offset` is the character (byte) of the string at fault,
// `rule` what it breaks ("'!' is not in the base64 alphabet ...").
struct Base64Error {
    size_t offset = 0;
    std::string rule;
};

// The bytes of the n characters at s into out (replacing its contents). Strict: the length is a
// multiple of 4, every character is in the alphabet except one or two '=' ending the string, and
// the bits after the last byte are zero (so each byte string has exactly one encoding). False with
// `e` set (out unspecified) when s breaks a rule: the first fault from the start of the string.
bool base64_decode(const char* s, size_t n, std::vector<uint8_t>& out, Base64Error& e);

// The base64 text of n bytes at p, padded with '='.
std::string base64_encode(const uint8_t* p, size_t n);

}  // namespace vpsim

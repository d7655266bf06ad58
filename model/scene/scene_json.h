// Typed reading of a scene's JSON values (scene.h): every read names the JSON pointer of the
// value and what was expected when the value is not that (SceneError, "file: /pointer: message").
#pragma once

#include "model/scene/scene.h"
#include "model/scene/scene_lift.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

namespace vpsim::scene::parse {

using nlohmann::json;

// A key as a JSON pointer token ('~' -> "~0", '/' -> "~1").
std::string escape_key(const std::string& k);
// "an object", "a string", "an integer" ... for "expected X, found Y".
const char* json_kind(const json& j);

// The scene being read (errors name its file) and the directory its relative file names start from.
class JsonReader {
public:
    JsonReader(Scene& s, std::string base, const LiftedStrings* lifted = nullptr)
        : s_(s), base_(std::move(base)), lifted_(lifted) {}

    [[noreturn]] void fail(const std::string& ptr, const std::string& what) const;
    [[noreturn]] void expected(const std::string& ptr, const json& j, const std::string& what) const;
    std::string path(const std::string& file) const;
    // Keys of an object must be among `allowed` (plus "comment" and keys starting with '_').
    void check_keys(const json& j, const std::string& ptr, std::initializer_list<const char*> allowed) const;
    const json& member(const json& j, const std::string& ptr, const char* key, const std::string& what) const;
    uint64_t get_uint(const json& j, const std::string& ptr, const std::string& what, uint64_t max = 0xFFFFFFFFull,
                      uint64_t min = 0) const;
    uint32_t opt_uint(const json& j, const std::string& ptr, const char* key, uint32_t dflt, const std::string& what,
                      uint64_t max = 0xFFFFFFFFull, uint64_t min = 0) const;
    float get_float(const json& j, const std::string& ptr, const std::string& what) const;
    float opt_float(const json& j, const std::string& ptr, const char* key, float dflt, const std::string& what) const;
    const std::string& get_string(const json& j, const std::string& ptr, const std::string& what) const;
    // The bytes of a base64 string (RFC 4648, '=' padded: model/common/base64.h), or of the string
    // a placeholder stands for (LiftedStrings), into out; returns the string's length. A malformed
    // one fails naming the character at fault and the rule broken.
    size_t get_base64(const json& j, const std::string& ptr, std::vector<uint8_t>& out) const;
    // A 32-bit word: an integer 0..0xFFFFFFFF or a string "0x..." of up to 8 hex digits.
    uint32_t get_word(const json& j, const std::string& ptr, const std::string& what) const;

protected:
    Scene& s_;
    std::string base_;
    const LiftedStrings* lifted_;
};

}  // namespace vpsim::scene::parse

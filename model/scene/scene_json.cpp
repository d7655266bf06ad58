// Typed reading of a scene's JSON values (scene_json.h).
#include "model/scene/scene_json.h"

#include "model/common/base64.h"

#include <fmt/format.h>

#include <cmath>
#include <limits>

namespace vpsim::scene::parse {

std::string escape_key(const std::string& k) {
    std::string s;
    for (char c : k) {
        if (c == '~') s += "~0";
        else if (c == '/') s += "~1";
        else s += c;
    }
    return s;
}

const char* json_kind(const json& j) {
    switch (j.type()) {
    case json::value_t::null: return "null";
    case json::value_t::object: return "an object";
    case json::value_t::array: return "an array";
    case json::value_t::string: return "a string";
    case json::value_t::boolean: return "a boolean";
    case json::value_t::number_integer:
    case json::value_t::number_unsigned: return "an integer";
    case json::value_t::number_float: return "a number";
    default: return "something else";
    }
}

[[noreturn]] void JsonReader::fail(const std::string& ptr, const std::string& what) const { throw s_.error(ptr, what); }

[[noreturn]] void JsonReader::expected(const std::string& ptr, const json& j, const std::string& what) const {
    fail(ptr, fmt::format("expected {}, found {}", what, json_kind(j)));
}

std::string JsonReader::path(const std::string& file) const {
    if (file.empty() || file[0] == '/' || base_.empty() || file == "-") return file;
    return base_ + "/" + file;
}

void JsonReader::check_keys(const json& j, const std::string& ptr, std::initializer_list<const char*> allowed) const {
    for (auto it = j.begin(); it != j.end(); ++it) {
        const std::string& k = it.key();
        if (k == "comment" || (!k.empty() && k[0] == '_')) continue;
        bool ok = false;
        for (const char* a : allowed) ok = ok || k == a;
        if (!ok) {
            std::string list;
            for (const char* a : allowed) list += std::string(list.empty() ? "" : ", ") + a;
            fail(ptr + "/" + escape_key(k), fmt::format("unknown key \"{}\": expected one of {}", k, list));
        }
    }
}

const json& JsonReader::member(const json& j, const std::string& ptr, const char* key, const std::string& what) const {
    auto it = j.find(key);
    if (it == j.end()) fail(ptr, fmt::format("missing \"{}\": expected {}", key, what));
    return *it;
}

uint64_t JsonReader::get_uint(const json& j, const std::string& ptr, const std::string& what, uint64_t max,
                              uint64_t min) const {
    if (!j.is_number_integer() || (j.is_number_integer() && !j.is_number_unsigned() && j.get<int64_t>() < 0) ||
        j.get<uint64_t>() > max || j.get<uint64_t>() < min) {
        if (j.is_number_integer()) fail(ptr, fmt::format("expected {}, found {}", what, j.dump()));
        expected(ptr, j, what);
    }
    return j.get<uint64_t>();
}

uint32_t JsonReader::opt_uint(const json& j, const std::string& ptr, const char* key, uint32_t dflt, const std::string& what,
                              uint64_t max, uint64_t min) const {
    auto it = j.find(key);
    return it == j.end() ? dflt : uint32_t(get_uint(*it, ptr + "/" + key, what, max, min));
}

float JsonReader::get_float(const json& j, const std::string& ptr, const std::string& what) const {
    if (!j.is_number()) expected(ptr, j, what);
    const double v = j.get<double>();
    // A value beyond the float range would silently become infinity.
    if (!(std::fabs(v) <= double(std::numeric_limits<float>::max())))
        fail(ptr, fmt::format("{} is outside the 32-bit float range (at most about 3.4e38)", j.dump()));
    return float(v);
}

float JsonReader::opt_float(const json& j, const std::string& ptr, const char* key, float dflt, const std::string& what) const {
    auto it = j.find(key);
    return it == j.end() ? dflt : get_float(*it, ptr + "/" + key, what);
}

const std::string& JsonReader::get_string(const json& j, const std::string& ptr, const std::string& what) const {
    if (!j.is_string()) expected(ptr, j, what);
    return j.get_ref<const std::string&>();
}

size_t JsonReader::get_base64(const json& j, const std::string& ptr, std::vector<uint8_t>& out) const {
    const std::string& str = get_string(j, ptr, "a base64 string (RFC 4648, '=' padded)");
    const char* text = str.data();
    size_t n = str.size();
    if (lifted_ && n > 1 && n < 12 && str[0] == '\x01') {  // a placeholder: no other string of a lifted text holds U+0001
        size_t k = 0;
        bool digits = true;
        for (size_t i = 1; i < n; ++i) {
            digits = digits && str[i] >= '0' && str[i] <= '9';
            k = k * 10 + size_t(str[i] - '0');
        }
        if (digits && k < lifted_->spans.size()) {
            text = lifted_->spans[k].first;
            n = lifted_->spans[k].second;
        }
    }
    Base64Error e;
    if (!base64_decode(text, n, out, e)) fail(ptr, fmt::format("character {} of {}: {}", e.offset, n, e.rule));
    return n;
}

uint32_t JsonReader::get_word(const json& j, const std::string& ptr, const std::string& what) const {
    if (j.is_string()) {
        const std::string& s = j.get_ref<const std::string&>();
        std::string h = s.rfind("0x", 0) == 0 || s.rfind("0X", 0) == 0 ? s.substr(2) : s.rfind('#', 0) == 0 ? s.substr(1) : "";
        if (!h.empty() && h.size() <= 8 && h.find_first_not_of("0123456789abcdefABCDEF") == std::string::npos)
            return uint32_t(std::stoul(h, nullptr, 16));
        fail(ptr, fmt::format("expected {}, found \"{}\"", what, s));
    }
    return uint32_t(get_uint(j, ptr, what));
}
}  // namespace vpsim::scene::parse

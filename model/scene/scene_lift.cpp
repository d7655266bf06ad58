// lift_base64 (scene_lift.h): a scene file's "base64" strings taken out of its text.
#include "model/scene/scene_lift.h"

#include <cstring>

namespace vpsim::scene {

std::string lift_base64(const std::string& text, LiftedStrings& lifted) {
    lifted.spans.clear();
    if (text.find("\\u0001") != std::string::npos) return {};
    const char* s = text.data();
    const size_t n = text.size();
    std::string out;
    size_t copied = 0;  // text before this is in `out`
    // From string to string: only the text between a string "base64" and the next string is
    // looked at (white space and one ':': the next string is its value), the rest skipped at
    // memchr's speed (an array file's numbers).
    bool key = false;  // the last string was "base64"
    for (size_t i = 0; i < n;) {
        const void* open = std::memchr(s + i, '"', n - i);
        if (!open) break;
        const size_t at = size_t(static_cast<const char*>(open) - s);
        bool value = false;
        if (key) {
            size_t colons = 0;
            value = true;
            for (size_t k = i; k < at && value; ++k) {
                colons += s[k] == ':';
                value = s[k] == ':' || s[k] == ' ' || s[k] == '\t' || s[k] == '\n' || s[k] == '\r';
            }
            value = value && colons == 1;
        }
        i = at;
        // A string from i to the first '"' after it that an odd run of backslashes does not escape.
        size_t end = i + 1;
        bool escapes = false;
        for (;;) {
            const void* q = std::memchr(s + end, '"', n - end);
            if (!q) {
                lifted.spans.clear();
                return {};  // unterminated: the parser says where
            }
            const size_t k = size_t(static_cast<const char*>(q) - s);
            escapes = escapes || std::memchr(s + end, '\\', k - end);
            size_t slashes = 0;
            while (k - slashes > i + 1 && s[k - slashes - 1] == '\\') ++slashes;
            end = k;
            if (slashes % 2 == 0) break;
            ++end;
        }
        if (value && !escapes) {
            out.append(s + copied, i - copied);
            out += "\"\\u0001" + std::to_string(lifted.spans.size()) + "\"";
            lifted.spans.emplace_back(s + i + 1, end - i - 1);
            copied = end + 1;
            key = false;
        } else {
            key = end - i - 1 == 6 && std::memcmp(s + i + 1, "base64", 6) == 0;
        }
        i = end + 1;
    }
    if (lifted.spans.empty()) return {};
    out.append(s + copied, n - copied);
    return out;
}

}  // namespace vpsim::scene

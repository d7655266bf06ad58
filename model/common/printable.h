// Text from input, made safe to echo in a message: control bytes, DEL and bytes outside ASCII
// are written as \xNN (a terminal shows the message as it is, whatever the input held).
#pragma once

#include <string>
#include <string_view>

namespace vpsim {

inline std::string printable(std::string_view s, size_t max_bytes = 200, bool keep_newlines = false) {
    static const char hex[] = "0123456789abcdef";
    std::string r;
    size_t n = 0;
    for (unsigned char c : s) {
        if (n++ == max_bytes) {
            r += "...";
            break;
        }
        if ((c >= 0x20 && c < 0x7f) || (keep_newlines && c == '\n')) {
            r += char(c);
        } else {
            r += "\\x";
            r += hex[c >> 4];
            r += hex[c & 15];
        }
    }
    return r;
}

}  // namespace vpsim

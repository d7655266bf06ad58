// model/common/json_offsets.h: where the values of a JSON text are, by JSON pointer.
#include "model/common/json_offsets.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace vpsim {

std::string json_pointer_escape(const std::string& k) {
    std::string e;
    for (char c : k) e += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
    return e;
}

JsonOffsets::JsonOffsets(const std::string& t, size_t depth) : t_(t), depth_(depth) { walk(); }

void JsonOffsets::ws() {
    while (i_ < t_.size() && (t_[i_] == ' ' || t_[i_] == '\n' || t_[i_] == '\r' || t_[i_] == '\t')) ++i_;
}

void JsonOffsets::utf8(uint32_t c, std::string& s) {
    if (c < 0x80) {
        s += char(c);
    } else if (c < 0x800) {
        s += char(0xC0 | (c >> 6)), s += char(0x80 | (c & 0x3F));
    } else if (c < 0x10000) {
        s += char(0xE0 | (c >> 12)), s += char(0x80 | ((c >> 6) & 0x3F)), s += char(0x80 | (c & 0x3F));
    } else {
        s += char(0xF0 | (c >> 18)), s += char(0x80 | ((c >> 12) & 0x3F)), s += char(0x80 | ((c >> 6) & 0x3F));
        s += char(0x80 | (c & 0x3F));
    }
}

uint32_t JsonOffsets::hex4() {
    uint32_t v = 0;
    for (int k = 0; k < 4 && i_ < t_.size(); ++k, ++i_) {
        const char c = t_[i_];
        v = v * 16 + uint32_t(c <= '9' ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

// A string at t_[i_] == '"', decoded as nlohmann decodes it when `keep` (a key whose pointer
// is kept), else only skipped.
std::string JsonOffsets::string(bool keep) {
    std::string s;
    ++i_;  // "
    while (i_ < t_.size() && t_[i_] != '"') {
        if (t_[i_] != '\\') {
            if (keep) s += t_[i_];
            ++i_;
            continue;
        }
        const char e = ++i_ < t_.size() ? t_[i_++] : '\0';
        if (!keep) {
            continue;
        } else if (e == 'u') {
            uint32_t c = hex4();
            if (c >= 0xD800 && c < 0xDC00 && i_ + 1 < t_.size() && t_[i_] == '\\' && t_[i_ + 1] == 'u') {
                i_ += 2;
                c = 0x10000 + ((c - 0xD800) << 10) + (hex4() - 0xDC00);
            }
            utf8(c, s);
        } else {
            const char* from = "\"\\/bfnrt";
            const char* to = "\"\\/\b\f\n\r\t";
            const char* p = std::strchr(from, e);
            s += p ? to[p - from] : e;
        }
    }
    ++i_;
    return s;
}

// The pointer of the next value in the innermost container (after its key, for an object).
std::string JsonOffsets::child(std::vector<Frame>& st) {
    Frame& f = st.back();
    const bool kept = st.size() <= depth_;  // the child's depth
    std::string ptr;
    if (f.object) {
        const std::string key = string(kept);
        ws();
        ++i_;  // :
        ws();
        if (kept) ptr = f.ptr + "/" + json_pointer_escape(key);
    } else if (kept) {
        ptr = f.ptr + "/" + std::to_string(f.n);
    }
    ++f.n;
    return ptr;
}

void JsonOffsets::walk() {
    std::vector<Frame> st;
    std::string ptr;  // of the value about to be read
    if (t_.compare(0, 3, "\xEF\xBB\xBF") == 0) i_ = 3;  // a UTF-8 byte order mark, which nlohmann skips
    ws();
    for (;;) {
        // A value.
        if (st.size() <= depth_) at.emplace(ptr, i_);
        if (i_ >= t_.size()) return;
        const char c = t_[i_];
        if (c == '{' || c == '[') {
            ++i_;
            st.push_back(Frame{c == '{', 0, st.size() < depth_ ? ptr : std::string()});
            ws();
        } else {
            if (c == '"')
                string(false);
            else
                while (i_ < t_.size() && !std::strchr(",]} \n\r\t", t_[i_])) ++i_;
            ws();
        }
        // Close the containers that end here; then the next member or element, or the end.
        for (;;) {
            if (st.empty()) return;
            if (i_ < t_.size() && t_[i_] == ',') {
                ++i_;
                ws();
            } else if (i_ >= t_.size() || t_[i_] == '}' || t_[i_] == ']') {
                ++i_;
                st.pop_back();
                ws();
                continue;
            }
            break;
        }
        ptr = child(st);
    }
}

TextLines::TextLines(const std::string& t) {
    starts_.push_back(0);
    for (size_t i = 0; i < t.size(); ++i)
        if (t[i] == '\n') starts_.push_back(i + 1);
}

std::string TextLines::at(size_t offset) const {
    const size_t line = size_t(std::upper_bound(starts_.begin(), starts_.end(), offset) - starts_.begin());
    return fmt::format("{}:{}", line, offset - starts_[line - 1] + 1);
}

}  // namespace vpsim

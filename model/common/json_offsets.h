// Where the values of a (valid) JSON text are: nlohmann's values carry no position, so a file
// format that names "FILE:LINE:COLUMN" in its errors walks the text once more. Used by the
// topology files (model/sc/topology_file.cpp) and the regression files (tb/regress_file.cpp).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

namespace vpsim {

// A key as a JSON pointer token ('~' -> "~0", '/' -> "~1").
std::string json_pointer_escape(const std::string& key);

// The byte offset of every value by JSON pointer ("" the root, "/units/3/type"), down to
// `depth` levels: in one pass, with an explicit stack (no recursion per level), so time and
// memory are linear in the text however deeply it nests. Values deeper have no entry (a
// message names their nearest ancestor that has one).
class JsonOffsets {
public:
    JsonOffsets(const std::string& text, size_t depth);
    std::unordered_map<std::string, size_t> at;

private:
    struct Frame {
        bool object;
        size_t n = 0;     // members or elements seen
        std::string ptr;  // this container's pointer ("" beyond depth_)
    };
    void ws();
    static void utf8(uint32_t c, std::string& s);
    uint32_t hex4();
    std::string string(bool keep);
    std::string child(std::vector<Frame>& st);
    void walk();
    const std::string& t_;
    size_t depth_;
    size_t i_ = 0;
};

// "LINE:COLUMN" of byte offsets (columns count bytes, from 1), from the offsets of the line
// starts: one pass over the text, then a binary search per position.
class TextLines {
public:
    explicit TextLines(const std::string& text);
    std::string at(size_t offset) const;

private:
    std::vector<size_t> starts_;
};

}  // namespace vpsim

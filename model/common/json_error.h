// Messages for JSON that nlohmann's parser rejects, located in the text: a syntax error carries a
// byte offset; a number the parser cannot hold (out_of_range.406, "number overflow parsing
// '1e999'") carries none, so the number is found in the text. Either becomes "line L, column C:
// what" for the caller to prefix with the file name, or (parse_json_file) "FILE:L:C: what".
#pragma once

#include <nlohmann/json.hpp>

#include <string>

namespace vpsim {

// Parses `text`; throws std::runtime_error("line L, column C: ...") on any nlohmann exception.
nlohmann::json parse_json_located(const std::string& text);

// The same for the text of file `source`: throws std::runtime_error("SOURCE:L:C: ..."), or
// "SOURCE: ..." for an error without a position. The form the file formats with positions
// (topologies, regressions, coverage files) give in their errors.
nlohmann::json parse_json_file(const std::string& text, const std::string& source);

// "line L, column C" of byte `offset` of `text` (columns count bytes, from 1).
std::string text_position(const std::string& text, size_t offset);

}  // namespace vpsim

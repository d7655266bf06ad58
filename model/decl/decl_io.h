// Loading and saving declaration token arrays: binary (.bin), hex (.hex) and the text
// forms of decl_text.h, chosen by file extension.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace vpsim::decl {

// An input (or output) file problem. what() starts with the file name:
//   with a location:    "file:line:column: error: message"  (same shape as TextError)
//   without a location: "file: message"                      (line == column == 0)
class InputError : public std::runtime_error {
public:
    InputError(std::string file, std::string message);
    InputError(std::string file, int line, int column, std::string message);

    std::string file;
    int line = 0;    // 1-based; 0 when the error has no location
    int column = 0;  // 1-based; 0 when the error has no location
    std::string message;
};

enum class TokenFormat {
    Binary,  // little-endian DWORDs
    Hex,     // whitespace-separated hex words, optional 0x, '#' and '//' comments
    Text,    // decl_text.h parse_text(): macros, raw DWORDs, C array initializers
    CArray,  // output only: decl_text.h to_c_array() (parse_text() reads it back)
};

// Format by extension (case-insensitive): .bin -> Binary, .hex -> Hex,
// .h/.hpp/.c/.cc/.cpp/.inl -> CArray, anything else (.decl, .txt, ...) -> Text.
// For loading, CArray and Text are the same thing (parse_text).
TokenFormat format_for_path(std::string_view path);

// Little-endian DWORDs. A size that is not a multiple of 4 is an error naming the
// file and the byte size.
std::vector<uint32_t> parse_bin(std::string_view bytes, std::string_view filename);

// Whitespace-separated hex words of 1..8 hex digits, optional 0x/0X prefix;
// comments from '#' or '//' to the end of the line. A bad word is an error with
// its line:column.
std::vector<uint32_t> parse_hex(std::string_view text, std::string_view filename);

// Loads a token array, choosing the format by extension (see format_for_path).
// "-" reads standard input and sniffs the format (named "<stdin>" in errors):
//   - a NUL byte, a control character other than whitespace, or invalid UTF-8
//     -> binary (real token arrays nearly always contain a zero byte);
//   - else, if every word outside '#'/'//' comments is exactly 8 hex digits
//     without 0x (what `xxd`-style dumps and other tools write) -> hex;
//   - else the text form (which also accepts 0x-prefixed raw hex).
// Every error, including text-form syntax errors, is thrown as InputError.
std::vector<uint32_t> load_tokens(const std::string& path);

// Writes little-endian DWORDs ("-" = standard output). Errors: InputError
// "path: cannot write: <strerror>".
void write_tokens_bin(const std::string& path, const std::vector<uint32_t>& tokens);

// Writes in the format for the extension (format_for_path); "-" writes the text
// form to standard output. The C array is named "decl".
void write_tokens(const std::string& path, const std::vector<uint32_t>& tokens);

}  // namespace vpsim::decl

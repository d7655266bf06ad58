// Declaration text (model/decl/decl_text.h parse_text): any bytes either parse or throw a
// TextError with a location inside the text; what parses prints back (to_text, to_c_array,
// to_hex) to text that parses to the same tokens, and parsing is deterministic.
#include "fuzz_util.h"

#include "model/decl/decl_text.h"

#include <algorithm>

using namespace vpsim;
using namespace vpsim::decl;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024) return fuzz::kReject;
    const std::string_view text(reinterpret_cast<const char*>(data), size);
    std::vector<uint32_t> t;
    try {
        t = parse_text(text, "in.decl");
    } catch (const TextError& e) {
        const int lines = 1 + int(std::count(text.begin(), text.end(), '\n'));
        FUZZ_CHECK(e.file == "in.decl", "file '%s'", e.file.c_str());
        FUZZ_CHECK(e.line >= 1 && e.line <= lines, "line %d of %d", e.line, lines);
        FUZZ_CHECK(e.column >= 1 && size_t(e.column) <= size + 1, "column %d", e.column);
        FUZZ_CHECK(!e.message.empty(), "empty message");
        FUZZ_CHECK(std::string(e.what()).rfind("in.decl:" + std::to_string(e.line) + ":", 0) == 0, "what() '%s'",
                   e.what());
        return 0;
    }
    FUZZ_CHECK(parse_text(text, "again") == t, "parse_text is not deterministic");
    const std::string printed = to_text(t);
    FUZZ_CHECK(parse_text(printed, "to_text") == t, "parse_text(to_text(parse_text(x))) differs: %s",
               fuzz::hex_words(t).c_str());
    FUZZ_CHECK(parse_text(to_c_array(t, "d"), "to_c_array") == t, "to_c_array does not parse back");
    FUZZ_CHECK(parse_text(to_hex(t), "to_hex") == t, "to_hex does not parse back");
    return 0;
}

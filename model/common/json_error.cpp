#include "model/common/json_error.h"

#include "model/common/json_offsets.h"
#include "model/common/printable.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace vpsim {

std::string text_position(const std::string& text, size_t offset) {
    size_t line = 1, col = 1;
    for (size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            col = 1;
        } else {
            ++col;
        }
    }
    return fmt::format("line {}, column {}", line, col);
}

namespace {

// Parses `text`; on any nlohmann exception throws std::runtime_error(where(offset) + what), with the
// byte offset the error is at, or std::string::npos when it has none.
template <class Where>
nlohmann::json parse_with(const std::string& text, const Where& where) {
    try {
        return nlohmann::json::parse(text);
    } catch (const nlohmann::json::parse_error& e) {
        // e.byte is one past the character that failed (1-based).
        const size_t at = e.byte ? e.byte - 1 : 0;
        std::string what = e.what();
        const size_t colon = what.find(": ");
        if (what.rfind("[json.exception", 0) == 0 && colon != std::string::npos) what = what.substr(colon + 2);
        throw std::runtime_error(where(at) + "not valid JSON: " + printable(what, 400));
    } catch (const nlohmann::json::exception& e) {
        // A number too large for a double: "number overflow parsing '1e999'".
        const std::string what = e.what();
        const size_t q = what.find('\''), q2 = what.rfind('\'');
        if (q != std::string::npos && q2 > q) {
            const std::string number = what.substr(q + 1, q2 - q - 1);
            const size_t at = text.find(number);
            if (at != std::string::npos)
                throw std::runtime_error(
                    where(at) + fmt::format("{} does not fit a 64-bit float (at most about 1.8e308)", printable(number)));
        }
        throw std::runtime_error(where(std::string::npos) + "not valid JSON: " + printable(what, 400));
    }
}

}  // namespace

nlohmann::json parse_json_located(const std::string& text) {
    return parse_with(text, [&](size_t at) { return at == std::string::npos ? std::string() : text_position(text, at) + ": "; });
}

nlohmann::json parse_json_file(const std::string& text, const std::string& source) {
    return parse_with(text, [&](size_t at) {
        return at == std::string::npos ? source + ": " : source + ":" + TextLines(text).at(std::min(at, text.size())) + ": ";
    });
}

}  // namespace vpsim

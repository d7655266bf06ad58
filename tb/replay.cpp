#include "tb/replay.h"

#include <fmt/format.h>

namespace vpsim::tb {

std::string shell_quote(const std::string& a) {
    if (!a.empty() && a.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./=+:,@%") ==
                          std::string::npos)
        return a;
    std::string q = "'";
    for (char c : a) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return q + "'";
}

std::string exact_number(double v) { return fmt::format("{}", v); }  // fmt: shortest round-trip form

std::string ReplayCommand::str() const {
    std::string s;
    for (const auto& w : words_) s += (s.empty() ? "" : " ") + shell_quote(w);
    return s;
}

}  // namespace vpsim::tb

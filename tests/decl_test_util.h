// Helpers for the declaration tests.
#pragma once

#include "model/decl/decl_decoder.h"

#include <catch2/catch.hpp>

#include <vector>

namespace vpsim::decl {

inline std::ostream& operator<<(std::ostream& os, const Event& e) { return os << to_string(e); }

// The rule of the array's ERROR event, 0 when it has none.
inline int error_rule(const Declaration& d) {
    for (const auto& e : d.events)
        if (e.kind == EventKind::Error) return e.code;
    return 0;
}
inline uint32_t error_index(const Declaration& d) {
    for (const auto& e : d.events)
        if (e.kind == EventKind::Error) return e.value;
    return ~0u;
}
inline bool has_warning(const Declaration& d, int rule) {
    for (const auto& x : d.diagnostics)
        if (x.severity == Severity::Warning && x.rule == rule) return true;
    return false;
}
inline Declaration strict(const std::vector<uint32_t>& t) { return decode(t); }
inline Declaration lenient(const std::vector<uint32_t>& t) {
    DecoderOptions o;
    o.lenient = true;
    return decode(t, o);
}

}  // namespace vpsim::decl

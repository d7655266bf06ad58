// Topology files (model/sc/topology_file.h): JSON text -> parse_topology. Every refusal must be
// a TopologyError located in the text ("fuzz.json:LINE:COLUMN: ", the line and column inside
// the text) whose message is printable (docs/limits.md: no control bytes, nothing outside
// ASCII); a topology it accepts has names of letters, digits and '_', each unit and link named
// once, capacities and bandwidths of at least 1 (or parameter keys), every entry located, and
// the text kept. The same text gives the same result twice. Nesting and size cost only time
// linear in the text: a deep input is within -timeout like any other.
//
// The checks against the unit types (ports, the step order, latency-0 cycles) need the SystemC
// model, which the fuzz build leaves out; tests/test_timing.cpp covers them.
#include "fuzz_util.h"

#include "model/sc/topology_file.h"

#include <set>

using namespace vpsim;

namespace {

bool valid_name(const std::string& s) {
    if (s.empty()) return false;
    for (char c : s)
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
    return true;
}

// "fuzz.json:L:C" with L and C inside `text` (C within line L, one past its end allowed).
bool inside(const std::string& where, const std::string& text) {
    unsigned line = 0, col = 0;
    int used = 0;
    if (std::sscanf(where.c_str(), "fuzz.json:%u:%u%n", &line, &col, &used) != 2 || line == 0 || col == 0) return false;
    size_t start = 0;
    for (unsigned l = 1; l < line; ++l) {
        start = text.find('\n', start);
        if (start == std::string::npos) return false;
        ++start;
    }
    size_t end = text.find('\n', start);
    if (end == std::string::npos) end = text.size();
    return col <= end - start + 1;
}

void check_message(const std::string& m, const std::string& text) {
    FUZZ_CHECK(m.rfind("fuzz.json:", 0) == 0, "refusal without the file: %s", m.c_str());
    FUZZ_CHECK(inside(m, text), "refusal not located inside the text: %s", m.c_str());
    for (unsigned char c : m) FUZZ_CHECK(c >= 0x20 && c < 0x7f, "byte 0x%02x in the message: %s", c, m.c_str());
}

void check_accepted(const sc::Topology& t, const std::string& text) {
    FUZZ_CHECK(t.text == text && t.source == "fuzz.json", "text or source not kept");
    FUZZ_CHECK(!t.units.empty(), "no units accepted");
    std::set<std::string> units, links;
    for (const auto& u : t.units) {
        FUZZ_CHECK(valid_name(u.name), "unit name '%s' accepted", u.name.c_str());
        FUZZ_CHECK(units.insert(u.name).second, "unit %s named twice", u.name.c_str());
        FUZZ_CHECK(!u.type.empty(), "unit %s without a type", u.name.c_str());
        FUZZ_CHECK(u.at.count("") && inside(u.at.at(""), text), "unit %s not located", u.name.c_str());
    }
    for (const auto& l : t.links) {
        FUZZ_CHECK(valid_name(l.name), "link name '%s' accepted", l.name.c_str());
        FUZZ_CHECK(links.insert(l.name).second, "link %s named twice", l.name.c_str());
        FUZZ_CHECK(!l.from.empty() && !l.to.empty(), "link %s without both ends", l.name.c_str());
        for (const sc::Amount* a : {&l.capacity, &l.bandwidth})
            FUZZ_CHECK(!a->key.empty() || (a->value >= 1 && a->value <= 0xFFFFFFFFu), "link %s: amount %llu accepted",
                       l.name.c_str(), (unsigned long long)a->value);
        FUZZ_CHECK(l.latency.key.empty() ? l.latency.value <= 0xFFFFFFFFu : l.latency.key.find('.') != std::string::npos,
                   "link %s: latency %s accepted", l.name.c_str(), l.latency.text().c_str());
        for (const auto& [field, where] : l.at)
            FUZZ_CHECK(inside(where, text), "link %s: member '%s' located at %s", l.name.c_str(), field.c_str(),
                       where.c_str());
    }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 64 * 1024) return fuzz::kReject;
    const std::string text(reinterpret_cast<const char*>(data), size);
    std::string first;
    for (int pass = 0; pass < 2; ++pass) {
        std::string got;
        try {
            const sc::Topology t = sc::parse_topology(text, "fuzz.json");
            check_accepted(t, text);
            got = "accepted";
        } catch (const sc::TopologyError& e) {
            got = e.what();
            check_message(got, text);
        }
        if (pass == 0)
            first = got;
        else
            FUZZ_CHECK(got == first, "two results for one text: '%s', then '%s'", first.c_str(), got.c_str());
    }
    return 0;
}

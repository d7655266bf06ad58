// One test case of a cross-check's JUnit report (tb/junit.h), for any unit: a corpus file, a
// directed case, or a batch of random arrays / cases, with its first failure.
#pragma once

#include <cstdint>
#include <string>

namespace vpsim::tb {

struct CaseRecord {
    std::string classname;  // "xcheck.corpus" / "xcheck.random" / "xcheck.vertex_fetch.directed" ...
    std::string name;       // the file, or "random arrays A-B (seed S)"
    uint64_t arrays = 0, mismatches = 0;  // arrays, or the unit's cases
    double seconds = 0;
    std::string failure;    // the first mismatch: where, what differs, the replay command
    std::string unit_word = "arrays";  // what `arrays` counts, in the failure message
};

}  // namespace vpsim::tb

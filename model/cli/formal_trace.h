// vpsim formal (docs/formal.md): reading yosys-smtbmc's output and its counterexample VCD.
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace vpsim::cli::formal {

// One property's outcome in a BMC run.
struct PropertyResult {
    std::string name;
    int failed_step = -1;   // -1: no failure up to the depth
    double seconds = 0;     // run time when it failed (or the whole run)
};

// yosys-smtbmc's log of a BMC run (--keep-going): the step reached, each failed assertion with the
// step it failed in, the status line and the elapsed time.
struct SmtbmcLog {
    int last_step = -1;
    std::vector<std::pair<std::string, int>> failed;  // property name, step
    std::vector<double> failed_seconds;
    std::string status;                               // PASSED / FAILED / "" (no status line)
    double seconds = 0;
};
SmtbmcLog parse_smtbmc(const std::string& output);

// The assertion labels of a yosys write_smt2 model ("; yosys-smt2-assert N NAME").
std::vector<std::string> smt2_properties(const std::string& smt2_text);

// The top scope's signals of a VCD, one value per step (the value at each time stamp where
// smt_step changes); values are bit strings, MSB first.
struct Trace {
    std::vector<std::map<std::string, std::string>> steps;
};
Trace read_vcd(const std::string& path);  // throws std::runtime_error naming the file and line

// The token arrays a decoder trace accepted (accept && !rst), from the last reset on, up to and
// including step `last_step`, and a token offered and refused in the last two steps; each array ends
// at a token marked in_last (the last array may be open).
struct TokenArray {
    std::vector<uint32_t> tokens;
    bool lenient = false;  // any token of it was accepted with lenient high
    bool closed = false;   // its last token was marked in_last
};
// offer_next: a handshake property failed; with no token refused, a NOP (0) ends the open array.
std::vector<TokenArray> decoder_arrays(const Trace& t, int last_step, bool offer_next);

}  // namespace vpsim::cli::formal

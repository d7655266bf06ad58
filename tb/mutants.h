// Mutation testing of the decoder RTL with yosys 0.23's `mutate` (Debian yosys): a list of N
// mutations sampled evenly over the design's netlist (mutate -list), each applied alone and
// written back as Verilog (write_verilog) for Verilator. docs/xcheck.md, "Mutation score".
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::tb {

struct Mutation {
    std::string command;  // the `mutate -mode ...` line, as yosys wrote it
    std::string mode;     // inv, const0, const1, cnot0, cnot1
    std::string where;    // file:line of the statement it changes (its last -src)
    std::string signal;   // the wire (and bit) when yosys names one
};

struct MutationSpec {
    std::string source;   // one SystemVerilog file
    std::string top;
    std::vector<std::pair<std::string, std::string>> params;  // chparam -set
    std::string work_dir; // scripts and mutants go here
};

// The yosys script that reads the design up to the point where mutations apply.
std::string yosys_prefix(const MutationSpec& spec);
// Appended to an error when yosys cannot read the design: the construct it likely tripped on
// (from yosys' output) and the ways around it.
std::string yosys_advice(const std::string& yosys_output);

// `mutate -list n -seed seed`; throws RtlBuildError (yosys missing, yosys' own error).
std::vector<Mutation> list_mutations(const MutationSpec& spec, int n, uint64_t seed);

// The design with one mutation, written to `out` as Verilog, and to `out_norename` with
// yosys' internal names kept (comparable with unmutated_netlist); throws RtlBuildError.
void write_mutant(const MutationSpec& spec, const Mutation& m, const std::string& out, const std::string& out_norename);

// The unmutated netlist with yosys' internal names kept: a mutant whose netlist (so written) is
// the same text is the same circuit, an equivalent mutant (a bit forced to the value it has).
std::string unmutated_netlist(const MutationSpec& spec);

}  // namespace vpsim::tb

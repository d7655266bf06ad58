// Mutation testing of the decoder RTL with yosys 0.23's `mutate` (Debian yosys): a list of N
// mutations sampled evenly over the design's netlist (mutate -list), each applied alone and
// written back as Verilog (write_verilog) for Verilator. docs/xcheck.md, "Mutation score".
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::rtl {
struct UserRtlSpec;  // model/rtl/user_rtl.h
}  // namespace vpsim::rtl

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

// The mutation campaign (vpsim xcheck --mutants N): each mutant written (write_mutant), set aside
// when its netlist is the unmutated one (equivalent), else Verilated in this process (so a build
// failure is told apart) and cross-checked in a child vpsim (its own process: a hanging or
// crashing mutant cannot take the campaign with it), which exits 0 when it finds no mismatch.
struct CampaignSpec {
    MutationSpec mutation;
    std::vector<std::string> check_args;  // the child's arguments after the program ("xcheck", ...); --rtl MUTANT is added
    std::string self = "/proc/self/exe";  // the child's program: this binary, even if it was replaced meanwhile
    std::string rtl_cache;                // the Verilated builds ("" = default_rtl_cache_dir(): the child must use the same)
    std::string vpsim_version;            // part of the RTL cache key
    double timeout_seconds = 60;          // one mutant's cross-check, then it counts as timed out
    // The unit's part (one adapter per unit, the loop is the same): how a mutant is Verilated into
    // the cache (empty: build_user_rtl, the decoder's port contract), and a further check of a
    // mutant whose cross-check passed (empty: none), returning "" when it passes too, else why it
    // is killed (the vertex fetch's timing in the pipeline).
    std::function<void(const rtl::UserRtlSpec&)> build;
    std::function<std::string(const std::string& mutant_file)> after_pass;
};

struct MutantOutcome {
    enum class Result { Equivalent, Killed, Survived, TimedOut, Error, NotBuilt };
    size_t index = 0;  // 1-based, in the list's order
    const Mutation* mutation = nullptr;
    Result result = Result::Killed;
    std::string detail;  // one line of at most 110 characters: the first mismatch, the error, ...
    // The mutant's cross-check as a command to run by hand (`vpsim xcheck ... --rtl MUTANT`, the
    // child's arguments without --first-mismatch and --json); empty when no mutant was built.
    std::string replay;
    double seconds = 0;  // writing, building and checking it
    const char* result_text() const;  // "equiv.", "killed", "SURVIVED", "timed out", "error", "not built"
};

struct CampaignResult {
    int killed = 0, survived = 0, timed_out = 0, not_built = 0, equivalent = 0;  // not_built: errors too
    std::vector<MutantOutcome> outcomes;  // every mutant's, in the list's order (its mutation points into the list)
    double seconds = 0;
    bool passed() const { return survived == 0 && timed_out == 0 && not_built == 0; }
};

// Runs every mutant of `list` in order, calling on_each after each; `unmutated` is
// unmutated_netlist(spec.mutation).
CampaignResult run_mutation_campaign(const CampaignSpec& spec, const std::vector<Mutation>& list, const std::string& unmutated,
                                     const std::function<void(const MutantOutcome&)>& on_each);

}  // namespace vpsim::tb

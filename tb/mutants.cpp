#include "tb/mutants.h"

#include "model/common/file_util.h"
#include "model/rtl/user_rtl.h"
#include "model/common/process.h"
#include "tb/replay.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <chrono>
#include <regex>

#include <sstream>

namespace vpsim::tb {

namespace {
std::string tail(const std::string& s, size_t n = 3000) { return s.size() > n ? s.substr(s.size() - n) : s; }

std::string arg_after(const std::string& line, const std::string& flag, bool last = false) {
    const std::string f = " " + flag + " ";
    const size_t i = last ? line.rfind(f) : line.find(f);
    if (i == std::string::npos) return "";
    const size_t b = i + f.size();
    const size_t e = line.find(' ', b);
    return line.substr(b, e == std::string::npos ? std::string::npos : e - b);
}

int run_yosys(const MutationSpec& spec, const std::string& script_name, const std::string& script, std::string& out) {
    const std::string path = spec.work_dir + "/" + script_name;
    write_file_atomic(path, script);
    const int rc = run_command({"yosys", "-q", "-s", path}, spec.work_dir, out);
    if (rc == 127) throw rtl::RtlBuildError("yosys is not installed (scripts/deps.sh yosys installs Debian's yosys 0.23)");
    return rc;
}
}  // namespace

// What to do when yosys cannot read a design that Verilator accepts (its SystemVerilog front end
// is a subset): the constructs seen to fail, and the way around.
std::string yosys_advice(const std::string& out) {
    std::string why;
    if (out.find("Latch inferred") != std::string::npos)
        why = "yosys infers a latch where Verilator sees combinational logic: typically an always_comb that assigns a "
              "struct through a function returning it, or a variable not assigned on every path in yosys' reading. ";
    else if (out.find("syntax error") != std::string::npos)
        why = "yosys 0.23's SystemVerilog front end does not know a construct Verilator accepts (seen: functions "
              "returning packed structs, struct literals, interfaces, packages with types). ";
    return "\n" + why +
           "--mutants needs a netlist yosys can read: (1) mutate a yosys-readable Verilog netlist of the same design "
           "written by another front end (e.g. sv2v, or your synthesis tool's gate-level Verilog), passed as the one "
           "--rtl file with --top; or (2) avoid those constructs in the source (return a logic vector from functions "
           "and unpack it, assign every struct field in always_comb before any branch). The cross-check itself "
           "(vpsim xcheck --rtl) does not need yosys.";
}

std::string yosys_prefix(const MutationSpec& spec) {
    std::string s = "read_verilog -sv " + spec.source + "\n";
    for (const auto& [n, v] : spec.params) s += fmt::format("chparam -set {} {} {}\n", n, v, spec.top);
    s += "hierarchy -top " + spec.top + "\nproc\nopt_clean\n";
    return s;
}

std::vector<Mutation> list_mutations(const MutationSpec& spec, int n, uint64_t seed) {
    std::string out;
    const std::string list = spec.work_dir + "/mutations.ys";
    if (run_yosys(spec, "list.ys", yosys_prefix(spec) + fmt::format("mutate -list {} -seed {} -o {}\n", n, seed, list), out) != 0)
        throw rtl::RtlBuildError("yosys could not list mutations of " + spec.source + ":\n" + tail(out) + yosys_advice(out));
    std::string text, why;
    if (!read_input_file(list, text, why)) throw rtl::RtlBuildError(list + ": " + why);
    std::istringstream in(text);
    std::vector<Mutation> ms;
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("mutate ", 0) != 0) continue;
        Mutation m;
        m.command = line;
        m.mode = arg_after(line, "-mode");
        std::string src = arg_after(line, "-src", true);
        // file:line.col-line.col -> file name:line
        const size_t slash = src.rfind('/');
        if (slash != std::string::npos) src = src.substr(slash + 1);
        const size_t dot = src.find('.', src.find(':'));
        m.where = dot == std::string::npos ? src : src.substr(0, dot);
        const std::string wire = arg_after(line, "-wire");
        if (!wire.empty()) m.signal = wire + "[" + arg_after(line, "-wirebit") + "]";
        else m.signal = arg_after(line, "-cell") + "." + arg_after(line, "-port") + "[" + arg_after(line, "-portbit") + "]";
        // yosys names some cells and wires by the source's absolute path ($ternary$/dir/x.sv:244$99):
        // the file's name is enough, and the same on every machine (the JUnit test case's name).
        static const std::regex dirs("/(?:[^/$:\\[\\]]*/)+");
        m.signal = std::regex_replace(m.signal, dirs, "");
        ms.push_back(std::move(m));
    }
    if (ms.empty()) throw rtl::RtlBuildError("yosys listed no mutations of " + spec.source);
    return ms;
}

void write_mutant(const MutationSpec& spec, const Mutation& m, const std::string& out_file, const std::string& out_norename) {
    std::string out;
    if (run_yosys(spec, "mutant.ys",
                  yosys_prefix(spec) + m.command + "\nwrite_verilog -noattr -norename " + out_norename +
                      "\nopt_clean\nwrite_verilog -noattr " + out_file + "\n",
                  out) != 0)
        throw rtl::RtlBuildError("yosys could not apply `" + m.command + "`:\n" + tail(out));
}

std::string unmutated_netlist(const MutationSpec& spec) {
    std::string out;
    const std::string file = spec.work_dir + "/unmutated.norename.v";
    if (run_yosys(spec, "unmutated.ys", yosys_prefix(spec) + "write_verilog -noattr -norename " + file + "\n", out) != 0)
        throw rtl::RtlBuildError("yosys could not read " + spec.source + ":\n" + tail(out) + yosys_advice(out));
    std::string text, why;
    if (!read_input_file(file, text, why)) throw rtl::RtlBuildError(file + ": " + why);
    return text;
}

const char* MutantOutcome::result_text() const {
    switch (result) {
    case Result::Equivalent: return "equiv.";
    case Result::Killed: return "killed";
    case Result::Survived: return "SURVIVED";
    case Result::TimedOut: return "timed out";
    case Result::Error: return "error";
    case Result::NotBuilt: return "not built";
    }
    return "?";
}

namespace {

// The first mismatch (or coverage hole) of the child's JSON report, which may follow other output.
std::string first_finding(const std::string& out) {
    const size_t brace = out.find("\n{") == std::string::npos ? out.find('{') : out.find("\n{") + 1;
    try {
        const auto j = nlohmann::json::parse(out.substr(brace == std::string::npos ? 0 : brace));
        if (!j["failures"].empty()) {
            const auto& f = j["failures"][0];
            // A decoder's case has a mode (strict / lenient), a vertex fetch's case an index.
            std::string d = f["origin"].get<std::string>() == "random" ? fmt::format("random #{}: ", f["index"].get<uint64_t>())
                            : f.contains("lenient")
                                ? f["origin"].get<std::string>() + (f["lenient"].get<bool>() ? " (lenient): " : ": ")
                                : fmt::format("{} #{}: ", f["origin"].get<std::string>(), f["index"].get<uint64_t>());
            return d + f["first_difference"].get<std::string>();
        }
        if (!j["coverage_holes"].empty()) return "coverage hole: " + j["coverage_holes"][0].get<std::string>();
        return "";
    } catch (const std::exception&) {
        return "(no report)";
    }
}

}  // namespace

CampaignResult run_mutation_campaign(const CampaignSpec& spec, const std::vector<Mutation>& list, const std::string& unmutated,
                                     const std::function<void(const MutantOutcome&)>& on_each) {
    using R = MutantOutcome::Result;
    const MutationSpec& ms = spec.mutation;
    CampaignResult res;
    const auto t0 = std::chrono::steady_clock::now();
    for (size_t i = 0; i < list.size(); ++i) {
        const Mutation& m = list[i];
        MutantOutcome o;
        o.index = i + 1;
        o.mutation = &m;
        const auto m0 = std::chrono::steady_clock::now();
        const std::string file = fmt::format("{}/mutant-{}.v", ms.work_dir, i + 1);
        try {
            const std::string nr = fmt::format("{}/mutant-{}.norename.v", ms.work_dir, i + 1);
            write_mutant(ms, m, file, nr);
            std::string netlist, why;
            if (!read_input_file(nr, netlist, why)) throw rtl::RtlBuildError(nr + ": " + why);
            if (netlist == unmutated) {
                o.result = R::Equivalent;
                o.detail = "the mutated netlist is the unmutated one (a bit forced to the value it has)";
                ++res.equivalent;
                o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m0).count();
                res.outcomes.push_back(o);
                on_each(o);
                continue;
            }
            rtl::UserRtlSpec rs;
            rs.sources = {file};
            rs.cache_dir = spec.rtl_cache;
            rs.vpsim_version = spec.vpsim_version;
            rs.show_warnings = false;
            if (spec.build)
                spec.build(rs);
            else
                rtl::build_user_rtl(rs);  // into the cache; the child finds it there
            std::vector<std::string> argv = {spec.self};
            argv.insert(argv.end(), spec.check_args.begin(), spec.check_args.end());
            argv.insert(argv.end(), {"--rtl", file});
            ReplayCommand replay({"vpsim"});
            for (const auto& w : spec.check_args)
                if (w != "--first-mismatch" && w != "--json") replay.arg(w);
            o.replay = replay.opt("--rtl", file).str();
            std::string out;
            const int rc = run_command(argv, "", out, spec.timeout_seconds);
            if (rc == -1) {
                o.result = R::TimedOut;
                o.detail = fmt::format("no verdict within {} s", spec.timeout_seconds);
                ++res.timed_out;
            } else if (rc == 0 && spec.after_pass && !(o.detail = spec.after_pass(file)).empty()) {
                o.result = R::Killed;
                ++res.killed;
            } else if (rc == 0) {
                o.result = R::Survived;
                ++res.survived;
            } else if (rc == 1) {
                o.result = R::Killed;
                ++res.killed;
                o.detail = first_finding(out);
            } else if (rc == 2 || rc == 126 || rc == 127) {
                o.result = R::Error;
                o.detail = out.substr(0, out.find('\n'));
                ++res.not_built;
            } else {
                o.result = R::Killed;
                o.detail = rc > 128 ? fmt::format("the simulation died (signal {})", rc - 128) : fmt::format("exit {}", rc);
                ++res.killed;
            }
        } catch (const rtl::RtlBuildError& e) {
            o.result = R::NotBuilt;
            o.detail = std::string(e.what()).substr(0, std::string(e.what()).find('\n'));
            ++res.not_built;
        }
        if (o.detail.size() > 110) o.detail = o.detail.substr(0, 107) + "...";
        o.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - m0).count();
        res.outcomes.push_back(o);
        on_each(o);
    }
    res.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    return res;
}

}  // namespace vpsim::tb

// vpsim formal (docs/formal.md): a unit's pin contract (rtl/formal/<unit>_props.sv) proved on the
// built-in RTL or your own with yosys + yosys-smtbmc: bounded model checking to --depth, k-induction
// with --induction; a counterexample becomes a VCD and, for the decoder, arrays xcheck replays.
#include "model/cli/commands.h"
#include "model/cli/formal_trace.h"
#include "model/common/params.h"
#include "model/common/process.h"

#include <CLI/CLI.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace vpsim::cli {

namespace {

namespace fs = std::filesystem;

struct FormalArgs {
    std::string unit = "decl_decoder";
    std::string rtl, top, solver = "z3", out = "formal-out";
    std::vector<std::string> params;
    int depth = 0;  // 0: the unit's default
    bool induction = false;
    double time_limit = 3600;
};

struct UnitInfo {
    const char* builtin;     // data path of the built-in RTL
    const char* top;         // its module
    const char* props;       // data path of the property wrapper
    const char* wrapper;     // the wrapper module
    std::vector<std::string> params;
    int depth;               // default depth
};

const UnitInfo& unit_info(const std::string& unit) {
    static const UnitInfo dec{"rtl/decl_decoder.sv", "decl_decoder", "rtl/formal/decl_decoder_props.sv",
                              "decl_decoder_props", {"CONST_COUNT", "MAX_LENGTH"}, 10};
    static const UnitInfo vf{"rtl/vertex_fetch.sv", "vertex_fetch", "rtl/formal/vertex_fetch_props.sv",
                             "vertex_fetch_props", {"MAX_ELEMS", "ELEM_DEPTH", "RESP_DEPTH"}, 10};
    return unit == "vertex_fetch" ? vf : dec;
}

bool on_path(const std::string& tool) {
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "");
    std::string d;
    while (std::getline(dirs, d, ':')) {
        std::error_code ec;
        if (!d.empty() && fs::exists(fs::path(d) / tool, ec)) return true;
    }
    return false;
}

// Every tool the run needs, or a ParamError naming the missing ones and their Debian packages.
void check_tools(const std::string& solver) {
    std::vector<std::string> missing;
    for (const char* t : {"yosys", "yosys-smtbmc"})
        if (!on_path(t)) missing.push_back(fmt::format("{} (Debian package yosys)", t));
    if (!on_path(solver)) missing.push_back(fmt::format("{} (Debian package {})", solver, solver));
    if (!fs::exists("/usr/bin/python3") && !on_path("python3")) missing.push_back("python3 (Debian package python3, for yosys-smtbmc)");
    if (missing.empty()) return;
    std::string list;
    for (const auto& m : missing) list += (list.empty() ? "" : ", ") + m;
    throw ParamError("formal verification needs " + list + " (scripts/deps.sh --build yosys " + solver + ")");
}

// -G NAME=VALUE, checked against the unit's parameters; integers only.
std::vector<std::pair<std::string, long>> parse_params(const FormalArgs& a, const UnitInfo& u) {
    std::vector<std::pair<std::string, long>> out;
    for (const std::string& g : a.params) {
        const size_t eq = g.find('=');
        const std::string name = g.substr(0, eq);
        bool known = false;
        for (const auto& p : u.params) known = known || p == name;
        if (eq == std::string::npos || !known) {
            std::string list;
            for (const auto& p : u.params) list += (list.empty() ? "" : ", ") + p;
            throw ParamError(fmt::format("-G {}: expected NAME=VALUE with NAME one of {} (--unit {})", g, list, a.unit));
        }
        char* end = nullptr;
        const std::string v = g.substr(eq + 1);
        const long value = std::strtol(v.c_str(), &end, 10);
        if (v.empty() || *end != '\0' || value < 1 || value > (1L << 24))
            throw ParamError(fmt::format("-G {}: the value must be an integer in 1 .. 2^24", g));
        out.emplace_back(name, value);
    }
    return out;
}

std::string read_text(const std::string& path) {
    std::ifstream in(path);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_text(const fs::path& path, const std::string& text) {
    std::ofstream out(path);
    out << text;
    if (!out) throw std::runtime_error(fmt::format("{}: cannot write", path.string()));
}

// The first "ERROR:" line of a yosys log (it names the file and line), or its last line.
std::string yosys_error(const std::string& log) {
    std::istringstream in(log);
    std::string line, last;
    while (std::getline(in, line)) {
        if (line.find("ERROR:") != std::string::npos) return line;
        if (!line.empty()) last = line;
    }
    return last;
}

struct Model {
    fs::path smt2;
    std::vector<std::string> properties;  // the wrapper's labels, in its order
    std::vector<std::string> in_model;    // those yosys kept (it drops one that is constant true)
};

// The labels of the wrapper's assertions ("name: assert (...)").
std::vector<std::string> wrapper_labels(const std::string& text) {
    std::vector<std::string> names;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const size_t p = line.find(": assert");
        if (p == std::string::npos || line.find("//") < p) continue;
        const size_t b = line.find_first_not_of(' ');
        const std::string name = line.substr(b, p - b);
        if (!name.empty() && name.find_first_not_of("abcdefghijklmnopqrstuvwxyz_0123456789") == std::string::npos)
            names.push_back(name);
    }
    return names;
}

// yosys: the design and the wrapper to one SMT-LIB model (flattened and bit-blasted: z3 answers the
// word-level model of the decoder only after minutes, its AND-inverter form in seconds).
Model build_model(const FormalArgs& a, const UnitInfo& u, const fs::path& dir) {
    const std::string rtl = a.rtl.empty() ? data_path(u.builtin) : fs::absolute(a.rtl).string();
    const std::string props = data_path(u.props);
    if (rtl.empty()) throw ParamError(data_not_found(u.builtin));
    if (props.empty()) throw ParamError(data_not_found(u.props));
    if (!a.rtl.empty() && !fs::is_regular_file(a.rtl)) throw ParamError(fmt::format("--rtl {}: no such file", a.rtl));
    const std::string top = a.top.empty() ? u.top : a.top;
    std::string script = fmt::format("read_verilog -sv -DSYNTHESIS {}\n", rtl);
    script += fmt::format("read_verilog -sv -formal -DDUT={} {}\n", top, props);
    for (const auto& [name, value] : parse_params(a, u)) script += fmt::format("chparam -set {} {} {}\n", name, value, u.wrapper);
    script += fmt::format("prep -flatten -top {}\nopt -full\ntechmap\nopt -fast\nabc -g AND\nopt_clean\ndffunmap\n", u.wrapper);
    script += "write_smt2 -wires model.smt2\n";
    write_text(dir / "formal.ys", script);
    std::string log;
    const int rc = run_command({"yosys", "-q", "-l", "yosys.log", "formal.ys"}, dir.string(), log, a.time_limit);
    if (rc != 0)
        throw ParamError(fmt::format("yosys could not read the design ({}; log {}): {}", rtl,
                                     (dir / "yosys.log").string(), yosys_error(read_text((dir / "yosys.log").string()) + log)));
    Model m{dir / "model.smt2", wrapper_labels(read_text(props)), formal::smt2_properties(read_text((dir / "model.smt2").string()))};
    if (m.properties.empty()) throw std::logic_error(fmt::format("{}: no labelled assertions", props));
    for (const std::string& p : m.in_model)  // a design's own assertions (outside `ifndef SYNTHESIS)
        if (std::find(m.properties.begin(), m.properties.end(), p) == m.properties.end()) m.properties.push_back(p);
    return m;
}

// One yosys-smtbmc run; its output goes to DIR/<log>.
formal::SmtbmcLog smtbmc(const FormalArgs& a, const fs::path& dir, const std::vector<std::string>& extra,
                         const std::string& log_name) {
    std::vector<std::string> argv = {"yosys-smtbmc", "-s", a.solver, "-t", std::to_string(a.depth)};
    argv.insert(argv.end(), extra.begin(), extra.end());
    argv.push_back("model.smt2");
    std::string out;
    const int rc = run_command(argv, dir.string(), out, a.time_limit);
    write_text(dir / log_name, out);
    formal::SmtbmcLog log = formal::parse_smtbmc(out);
    if (rc == -1) log.status = "TIMEOUT";
    else if (log.status.empty())
        throw std::runtime_error(fmt::format("yosys-smtbmc ended without a status (exit {}; log {})", rc, (dir / log_name).string()));
    return log;
}

std::string hex_lines(const formal::TokenArray& arr) {
    std::string s;
    for (uint32_t t : arr.tokens) s += fmt::format("0x{:08X},\n", t);
    return s;
}

// The decoder counterexample's token arrays as corpus files that `vpsim xcheck --corpus` runs;
// returns the replay command.
std::string write_replay(const FormalArgs& a, const fs::path& dir, const fs::path& vcd, int step, bool handshake) {
    const auto arrays = formal::decoder_arrays(formal::read_vcd(vcd.string()), step, handshake);
    if (arrays.empty()) return "";
    const fs::path rd = dir / "replay";
    fs::create_directories(rd);
    for (size_t i = 0; i < arrays.size(); ++i) {
        const auto& arr = arrays[i];
        write_text(rd / fmt::format("cex-{:02}.decl", i + 1),
                   fmt::format("// vpsim formal counterexample ({}), array {} of {}: {} tokens{}{}\n{}", vcd.filename().string(),
                               i + 1, arrays.size(), arr.tokens.size(), arr.lenient ? ", lenient" : "",
                               arr.closed ? "" : " (open when the property failed)", hex_lines(arr)));
    }
    std::string cmd = "vpsim xcheck";
    if (!a.rtl.empty()) cmd += " --rtl " + a.rtl + (a.top.empty() ? "" : " --top " + a.top);
    for (const auto& g : a.params) cmd += " -G " + g;
    // A stall shows when the sink takes every event and a token is always offered.
    return cmd + " --corpus " + rd.string() + " --random 0" + (handshake ? " --out-ready 1 --in-valid 1" : "");
}

std::string result_text(const formal::SmtbmcLog& bmc, const std::string& prop, int depth, bool proved, int& step) {
    step = -1;
    for (const auto& [name, k] : bmc.failed)
        if (name == prop) step = k;
    if (step >= 0) return fmt::format("failed at step {}", step);
    if (bmc.status == "TIMEOUT")
        return bmc.last_step <= 0 ? std::string("time limit, no step done") : fmt::format("time limit, passed to step {}", bmc.last_step - 1);
    return proved ? "proved" : fmt::format("passed to depth {}", depth);
}

int run_formal(FormalArgs a) {
    const UnitInfo& u = unit_info(a.unit);
    if (!a.top.empty() && a.rtl.empty()) throw ParamError("--top names the module of --rtl FILE: give --rtl");
    if (a.depth == 0) a.depth = u.depth;
    check_tools(a.solver);
    const fs::path dir = fs::absolute(a.out);
    fs::create_directories(dir);
    fs::remove(dir / "cex.vcd");
    fs::remove_all(dir / "replay");
    const Model m = build_model(a, u, dir);
    const auto t0 = std::chrono::steady_clock::now();
    const formal::SmtbmcLog bmc = smtbmc(a, dir, {"--keep-going", "--dump-vcd", "cex.vcd"}, "bmc.log");
    bool proved = false;
    double ind_seconds = 0;
    if (a.induction && bmc.failed.empty() && bmc.status == "PASSED") {
        const auto t1 = std::chrono::steady_clock::now();
        proved = smtbmc(a, dir, {"-i"}, "induction.log").status == "PASSED";
        ind_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t1).count();
    }
    const double bmc_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() - ind_seconds;
    fmt::print("vpsim formal --unit {}: {} (top {}), solver {}, depth {}{}\n", a.unit,
               a.rtl.empty() ? u.builtin : a.rtl, a.top.empty() ? u.top : a.top, a.solver, a.depth,
               a.induction ? ", k-induction" : "");
    fmt::print("{:<24} {:<26} {:>6} {:>9}\n", "property", "result", "depth", "time (s)");
    int first_fail = -1;
    bool handshake = false;  // the first failure is an in_ready property
    for (const std::string& p : m.properties) {
        int step = -1;
        const bool kept = std::find(m.in_model.begin(), m.in_model.end(), p) != m.in_model.end();
        const std::string r = kept ? result_text(bmc, p, a.depth, proved, step) : "proved (constant: yosys)";
        double secs = bmc_seconds + (proved ? ind_seconds : 0);
        for (size_t i = 0; i < bmc.failed.size(); ++i)
            if (bmc.failed[i].first == p) secs = bmc.failed_seconds[i];
        fmt::print("{:<24} {:<26} {:>6} {:>9.1f}\n", p, r, step >= 0 ? step : a.depth, secs);
        if (step >= 0 && (first_fail < 0 || step < first_fail)) {
            first_fail = step;
            handshake = p.rfind("ready_", 0) == 0;
        }
    }
    if (a.induction && !proved && bmc.failed.empty())
        fmt::print("k-induction did not close at k = {} (log {})\n", a.depth, (dir / "induction.log").string());
    if (first_fail < 0) return bmc.status == "TIMEOUT" ? 1 : 0;
    fmt::print("counterexample: {}\n", (dir / "cex.vcd").string());
    if (a.unit == "decl_decoder" && fs::exists(dir / "cex.vcd")) {
        const std::string replay = write_replay(a, dir, dir / "cex.vcd", first_fail, handshake);
        if (!replay.empty()) fmt::print("token arrays: {}\nreplay: {}\n", (dir / "replay").string(), replay);
    }
    return 1;
}

}  // namespace

void add_formal_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<FormalArgs>();
    CLI::App* c = app.add_subcommand(
        "formal",
        "Prove a unit's pin contract (rtl/formal/<unit>_props.sv: handshake, events, FIFO and credit bounds) on its "
        "RTL with yosys + yosys-smtbmc: bounded model checking to --depth, k-induction with --induction. A failed "
        "property prints the step, writes the counterexample VCD and, for the decoder, its token arrays with an "
        "xcheck replay command. Exit 0 all passed/proved, 1 a property failed or the time limit, 2 bad input or a "
        "missing tool (docs/formal.md)");
    c->add_option("--unit", a->unit, "decl_decoder (default) or vertex_fetch")
        ->check(CLI::IsMember({"decl_decoder", "vertex_fetch"}));
    c->add_option("--rtl", a->rtl, "Your design (one SystemVerilog file yosys reads) instead of the built-in RTL");
    c->add_option("--top", a->top, "With --rtl: the design's module (default: the unit's name)");
    c->add_option("-G", a->params, "NAME=VALUE: a parameter of the unit (decl_decoder: CONST_COUNT, MAX_LENGTH; "
                                   "vertex_fetch: MAX_ELEMS, ELEM_DEPTH, RESP_DEPTH); repeatable");
    c->add_option("--depth", a->depth, "BMC depth in cycles (default 10); with --induction also the induction's k")
        ->check(CLI::Range(1, 200));
    c->add_flag("--induction", a->induction, "After BMC passes, try k-induction with k = --depth: all properties proved");
    c->add_option("--solver", a->solver, "SMT solver for yosys-smtbmc: z3 (default) or cvc4")
        ->check(CLI::IsMember({"z3", "cvc4"}));
    c->add_option("-o,--out", a->out, "Output directory (default formal-out): model, logs, cex.vcd, replay/");
    c->add_option("--time-limit", a->time_limit, "Seconds per yosys / yosys-smtbmc run (default 3600)")
        ->check(CLI::Range(1.0, 1e6));
    c->callback([a, &exit_code] {
        try {
            exit_code = run_formal(*a);
        } catch (const ParamError& e) {
            std::fprintf(stderr, "vpsim formal: %s\n", e.what());
            exit_code = 2;
        } catch (const std::logic_error& e) {
            std::fprintf(stderr, "vpsim formal: internal error: %s\n", e.what());
            exit_code = 3;
        } catch (const std::exception& e) {
            std::fprintf(stderr, "vpsim formal: %s\n", e.what());
            exit_code = 2;
        }
    });
}

}  // namespace vpsim::cli

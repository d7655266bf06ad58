#include "model/rtl/user_rtl.h"

#include "model/common/file_util.h"
#include "model/common/fnv.h"
#include "model/common/process.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <map>
#include <sstream>
#include <unistd.h>

namespace fs = std::filesystem;

namespace vpsim::rtl {

// ---------------------------------------------------------------------------------------
// The contract
const std::vector<PortInfo>& contract_ports() {
    static const std::vector<PortInfo> p = {
        {"clk", "input", 1, ""},        {"rst", "input", 1, ""},        {"in_valid", "input", 1, ""},
        {"in_ready", "output", 1, ""},  {"in_token", "input", 32, ""},  {"in_last", "input", 1, ""},
        {"lenient", "input", 1, ""},    {"out_valid", "output", 1, ""}, {"out_ready", "input", 1, ""},
        {"out_kind", "output", 3, ""},  {"out_stream", "output", 5, ""}, {"out_value", "output", 24, ""},
        {"out_code", "output", 5, ""},  {"out_reg", "output", 8, ""},   {"out_data", "output", 128, ""},
    };
    return p;
}

namespace {
std::string port_text(const PortInfo& p) {
    return fmt::format("{:<7} {:>5} {}", p.dir, p.width > 0 ? fmt::format("[{}]", p.width) : "[?]", p.name);
}
}  // namespace

std::string check_ports(const std::vector<PortInfo>& found, const std::string& top) {
    return check_ports(found, top, contract_ports(),
                       "the decoder's port contract (docs/decl-decoder.md, \"The cycle contract\")");
}

std::string check_ports(const std::vector<PortInfo>& found, const std::string& top, const std::vector<PortInfo>& contract,
                        const std::string& what) {
    std::map<std::string, const PortInfo*> by_name;
    for (const auto& p : found) by_name[p.name] = &p;
    std::vector<std::string> problems;
    for (const auto& e : contract) {
        auto it = by_name.find(e.name);
        if (it == by_name.end()) {
            problems.push_back(fmt::format("missing port {} ({} [{}])", e.name, e.dir, e.width));
            continue;
        }
        const PortInfo& f = *it->second;
        if (f.dir != e.dir)
            problems.push_back(fmt::format("port {} is an {}, the contract says {} ({})", e.name, f.dir, e.dir, f.where));
        if (f.width != e.width)
            problems.push_back(fmt::format("port {} is {} bits wide, the contract says {} ({})", e.name,
                                           f.width > 0 ? std::to_string(f.width) : "not a packed vector, or ?",
                                           e.width, f.where));
    }
    for (const auto& f : found) {
        const bool known = std::any_of(contract.begin(), contract.end(),
                                       [&](const PortInfo& e) { return e.name == f.name; });
        if (!known) problems.push_back(fmt::format("port {} is not in the contract ({})", f.name, f.where));
    }
    if (problems.empty()) return "";
    std::string s = fmt::format("the ports of top module {} do not match {}:\n", top, what);
    for (const auto& p : problems) s += "  - " + p + "\n";
    s += "  expected:\n";
    for (const auto& e : contract) s += "    " + port_text(e) + "\n";
    s += "  found:\n";
    for (const auto& f : found) s += "    " + port_text(f) + (f.where.empty() ? "" : "   " + f.where) + "\n";
    return s;
}

// ---------------------------------------------------------------------------------------
std::string default_rtl_cache_dir() {
    if (const char* e = std::getenv("VPSIM_RTL_CACHE"); e && *e) return e;
    if (const char* x = std::getenv("XDG_CACHE_HOME"); x && *x) return std::string(x) + "/vpsim/rtl";
    if (const char* h = std::getenv("HOME"); h && *h) return std::string(h) + "/.cache/vpsim/rtl";
    return (fs::temp_directory_path() / "vpsim-rtl-cache").string();
}

std::pair<std::string, std::string> parse_param(const std::string& arg) {
    const size_t eq = arg.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == arg.size())
        throw RtlBuildError(fmt::format("-G {}: expected NAME=VALUE (a parameter of the top module and its value)", arg));
    const std::string name = arg.substr(0, eq), value = arg.substr(eq + 1);
    const bool ident = (std::isalpha(static_cast<unsigned char>(name[0])) || name[0] == '_') &&
                       std::all_of(name.begin(), name.end(), [](char c) {
                           return std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '$';
                       });
    if (!ident) throw RtlBuildError(fmt::format("-G {}: '{}' is not a Verilog identifier", arg, name));
    const bool plain = std::all_of(value.begin(), value.end(), [](char c) {
        return std::isalnum(static_cast<unsigned char>(c)) || c == '\'' || c == '_' || c == '-' || c == '.';
    });
    if (!plain)
        throw RtlBuildError(
            fmt::format("-G {}: the value '{}' is not a number or sized literal (e.g. 192, 32'd192, 'hC0)", arg, value));
    return {name, value};
}

namespace {

std::string trim(std::string s) {
    while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.pop_back();
    size_t i = 0;
    while (i < s.size() && std::isspace(static_cast<unsigned char>(s[i]))) ++i;
    return s.substr(i);
}

std::string read_all(const std::string& path) {
    std::string data, why;
    if (!read_input_file(path, data, why)) throw RtlBuildError(fmt::format("{}: {}", path, why));
    return data;
}

std::string hex64(uint64_t v) { return fmt::format("{:016x}", v); }

}  // namespace

// The C ABI around the Verilated model (prefix Vdut), compiled into the shared object: the text of
// model/rtl/user_rtl_wrapper.cpp, embedded by the build (model/rtl/embed_text.cmake). Its text is part of the
// cache key.
extern const char kUserRtlWrapper[];

// ---------------------------------------------------------------------------------------
UserRtl::~UserRtl() {
    // The shared object stays loaded: Verilator's run-time keeps thread-local state whose
    // destructors live in it (unloading it before the threads end would leave them dangling).
}

void* UserRtl::symbol(const char* name) const { return handle_ ? dlsym(handle_, name) : nullptr; }

const UserRtl::Api& UserRtl::api() const {
    if (!api_) throw std::logic_error("UserRtl::api: the design was built with another unit's wrapper (use symbol())");
    return *api_;
}

namespace {
class DynPins : public RtlPinInstance {
public:
    explicit DynPins(const UserRtl::Api& api) : api_(api), p_(api.make()) {}
    ~DynPins() override { api_.destroy(p_); }
    DynPins(const DynPins&) = delete;
    DynPins& operator=(const DynPins&) = delete;
    unsigned eval(bool clk, bool rst, bool in_valid, uint32_t token, bool last, bool lenient, bool out_ready) override {
        return api_.pins(p_, clk, rst, in_valid, token, last, lenient, out_ready);
    }
    void outputs(uint32_t f[9]) const override { api_.event(p_, f); }
    bool assertion_failed() const override { return api_.error(p_, 0) != 0; }

private:
    const UserRtl::Api& api_;
    void* p_;
};
}  // namespace

std::unique_ptr<RtlPinInstance> UserRtl::make_pin_instance() const { return std::make_unique<DynPins>(*api_); }

// ---------------------------------------------------------------------------------------
namespace {

std::atomic<unsigned> tmp_counter{0};

// Removes a scratch directory when the build leaves (after a publish it no longer exists).
struct Cleanup {
    std::string d;
    ~Cleanup() {
        std::error_code e;
        if (!d.empty()) fs::remove_all(d, e);
    }
};

std::vector<std::string> verilator_common_args(const UserRtlSpec& spec) {
    std::vector<std::string> a;
    if (!spec.top.empty()) a.insert(a.end(), {"--top-module", spec.top});
    for (const auto& [n, v] : spec.params) a.push_back("-G" + n + "=" + v);
    return a;
}

// The cache entry's design.txt: the top module and the parameters' values (name value).
void write_design_info(const std::string& file, const std::string& top, const std::map<std::string, std::string>& vals) {
    std::string s = "top " + top + "\n";
    for (const auto& [n, v] : vals) s += "param " + n + " " + v + "\n";
    write_file_atomic(file, s);
}

// The cache key: everything that goes into the shared object; the sources' absolute paths into
// `abs_sources`. Throws when verilator cannot run or a source is missing.
Fnv design_key(const UserRtlSpec& spec, const char* wrapper, const std::string& vversion, std::vector<std::string>& abs_sources) {
    Fnv key;
    key.add("vpsim user rtl, abi 1");
    key.add(wrapper);
    key.add(spec.vpsim_version);
    key.add(vversion);
    key.add(spec.top);
    for (const auto& [n, v] : spec.params) key.add(n + "=" + v);
    key.add(spec.coverage ? "coverage" : "");
    key.add(spec.trace ? (spec.trace_vcd ? "trace-vcd" : "trace-fst") : "");
    for (const auto& s : spec.sources) {
        if (!fs::is_regular_file(s)) throw RtlBuildError(fmt::format("{}: no such file (--rtl)", s));
        const std::string bytes = read_all(s);
        key.add(bytes);
        abs_sources.push_back(fs::absolute(s).string());
    }
    return key;
}

// The last 4000 characters of a failed command's output, trimmed.
std::string output_tail(const std::string& out) { return trim(out.size() > 4000 ? out.substr(out.size() - 4000) : out); }

// A makefile: `target` from the translation units (source, object) and extra objects by `link`.
std::string make_file(const std::string& target, const std::string& link, const std::string& fl,
                      const std::vector<std::pair<std::string, std::string>>& tus, const std::string& extra_objs) {
    std::string objs, rules;
    for (const auto& [src, obj] : tus) {
        objs += " " + obj;
        rules += fmt::format("{}: {}\n\t$(CXX) $(FLAGS) -c $< -o $@\n", obj, src);
    }
    return fmt::format("CXX ?= g++\nFLAGS = {}\n{}:{}{}\n\t{}\n{}", fl, target, objs, extra_objs, link, rules);
}

// One design Verilated and compiled in the scratch directory `tmp`, then published as the cache
// entry `dir` (steps 1 to 3 below).
struct DesignBuild {
    const UserRtlSpec& spec;
    const char* wrapper;
    const std::string& vversion;
    const std::vector<std::string>& abs_sources;
    const std::string& cache;
    const std::string& dir;
    std::string tmp;
    std::vector<std::string> common;  // verilator_common_args
    std::string warnings, xml;        // of the XML pass
    XmlTop top;

    void run();

private:
    void read_ports();
    std::string wave_harness() const;
    void verilate();
    std::string compile_runtime(const std::string& root, const std::string& flags, const std::vector<std::string>& runtime);
    void compile_model();
    void publish();
};

// 1. The ports, before anything is compiled.
void DesignBuild::read_ports() {
    std::vector<std::string> xml_cmd = {"verilator", "--xml-only", "-Wno-fatal", "--Mdir", tmp + "/xml",
                                        "--xml-output", tmp + "/design.xml"};
    xml_cmd.insert(xml_cmd.end(), common.begin(), common.end());
    xml_cmd.insert(xml_cmd.end(), abs_sources.begin(), abs_sources.end());
    std::string out;
    if (run_command(xml_cmd, tmp, out) != 0) throw RtlBuildError("Verilator rejected the design:\n" + trim(out));
    warnings = trim(out);
    xml = read_all(tmp + "/design.xml");
    try {
        top = parse_verilator_xml(xml);
    } catch (const std::runtime_error& e) {
        throw RtlBuildError(e.what());
    }
    for (const auto& [n, v] : spec.params)
        if (std::find(top.params.begin(), top.params.end(), n) == top.params.end()) {
            std::string have;
            for (const auto& p : top.params) have += (have.empty() ? "" : ", ") + p;
            throw RtlBuildError(fmt::format("-G {}={}: top module {} has no parameter {} (its parameters: {})", n, v,
                                            top.top, n, have.empty() ? "none" : have));
        }
    if (std::string bad = spec.contract ? check_ports(top.ports, top.top, *spec.contract, spec.contract_name)
                                        : check_ports(top.ports, top.top);
        !bad.empty())
        throw RtlBuildError(bad);
}

// The waveform's harness: the design as `dut` (its -G values as parameter overrides) and the
// model's pins as inputs `golden_*`, so the FST shows the expected events beside it.
std::string DesignBuild::wave_harness() const {
    std::string h = "// Generated by vpsim (model/rtl/user_rtl.cpp): the design under test and the model's pins, for waveforms.\n"
                    "module vpsim_wave_top (\n";
    for (const auto& p : contract_ports()) h += fmt::format("    {} logic [{}:0] {},\n", p.dir, p.width - 1, p.name);
    h += "    input logic golden_in_ready, input logic golden_out_valid, input logic [2:0] golden_kind,\n"
         "    input logic [4:0] golden_stream, input logic [23:0] golden_value, input logic [4:0] golden_code,\n"
         "    input logic [7:0] golden_reg, input logic [127:0] golden_data);\n";
    std::string params;
    for (const auto& [n, v] : spec.params) params += fmt::format("{}.{}({})", params.empty() ? "" : ", ", n, v);
    h += fmt::format("  {} {}dut (", top.top, params.empty() ? "" : "#(" + params + ") ");
    bool first = true;
    for (const auto& p : contract_ports()) {
        h += fmt::format("{}.{}({})", first ? "" : ", ", p.name, p.name);
        first = false;
    }
    h += ");\n  // The model's pins in the waveform's scope `golden`.\n  struct packed { logic in_ready, out_valid; logic [2:0] kind;\n"
         "    logic [4:0] stream; logic [23:0] value; logic [4:0] code; logic [7:0] rg; logic [127:0] data; } golden;\n"
         "  assign golden = {golden_in_ready, golden_out_valid, golden_kind, golden_stream, golden_value, golden_code,\n"
         "                   golden_reg, golden_data};\nendmodule\n";
    return h;
}

// 2. Verilate into C++.
void DesignBuild::verilate() {
    std::vector<std::string> cc = {"verilator", "--cc", "--prefix", "Vdut", "--Mdir", tmp + "/obj", "-O3",
                                   "--x-assign", "fast", "--x-initial", "fast", "--assert", "-Wno-fatal"};
    if (spec.coverage) cc.push_back("--coverage");
    if (spec.trace) cc.push_back(spec.trace_vcd ? "--trace" : "--trace-fst");
    if (spec.trace && !spec.trace_vcd) {
        write_file_atomic(tmp + "/vpsim_wave_top.sv", wave_harness());
        cc.insert(cc.end(), {"--top-module", "vpsim_wave_top", "-Wno-UNUSEDSIGNAL"});
        cc.insert(cc.end(), abs_sources.begin(), abs_sources.end());
        cc.push_back(tmp + "/vpsim_wave_top.sv");
    } else {
        cc.insert(cc.end(), common.begin(), common.end());
        cc.insert(cc.end(), abs_sources.begin(), abs_sources.end());
    }
    std::string out;
    if (run_command(cc, tmp, out) != 0) throw RtlBuildError("Verilator rejected the design:\n" + trim(out));
    if (!warnings.empty() && spec.show_warnings) std::fprintf(stderr, "vpsim: Verilator's warnings on the design:\n%s\n", warnings.c_str());
}

// The run-time files this model needs, as Verilator lists them in Vdut_classes.mk; `needs_z`
// when one writes FST (zlib).
std::vector<std::string> runtime_files(const std::string& classes, bool& needs_z) {
    std::vector<std::string> runtime;
    needs_z = false;
    for (const char* group : {"VM_GLOBAL_FAST += \\", "VM_GLOBAL_SLOW += \\"}) {
        size_t i = classes.find(group);
        if (i == std::string::npos) continue;
        std::istringstream lines(classes.substr(i + std::strlen(group)));
        std::string line;
        std::getline(lines, line);  // the rest of the header line
        while (std::getline(lines, line)) {
            line = trim(line);
            if (line.empty()) break;
            if (line.back() == '\\') line = trim(line.substr(0, line.size() - 1));
            if (line.empty()) continue;
            if (line.find("fst") != std::string::npos) needs_z = true;
            runtime.push_back(line);
        }
    }
    return runtime;
}

// Whether Verilator split the design for parallel builds (`VM_PARALLEL_BUILDS = 1` in
// Vdut_classes.mk, which it sets for large designs). When it did not, the model's files are compiled
// as one translation unit, as Verilator's own makefile does then (its Vdut__ALL.cpp): each generated
// file is small, and most of its compile time is parsing verilated.h again.
bool parallel_builds(const std::string& classes) {
    std::istringstream lines(classes);
    std::string line;
    while (std::getline(lines, line)) {
        line = trim(line);
        if (line.rfind("VM_PARALLEL_BUILDS", 0) != 0) continue;
        const size_t eq = line.find('=');
        return eq != std::string::npos && trim(line.substr(eq + 1)) != "0";
    }
    return false;
}

// The run-time files are compiled once per Verilator and build options into
// <cache>/runtime-<hash>/ (same publish-by-rename as the designs), so a second design (a mutant,
// a variant) compiles only its own code. Returns their objects (" OBJ OBJ...").
std::string DesignBuild::compile_runtime(const std::string& root, const std::string& flags,
                                         const std::vector<std::string>& runtime) {
    Fnv rkey;
    rkey.add(vversion);
    rkey.add(root);
    rkey.add(flags);
    for (const auto& r : runtime) rkey.add(r);
    const std::string rtdir = cache + "/runtime-" + hex64(rkey.h);
    std::string rt_objs;
    for (const auto& r : runtime) rt_objs += " " + rtdir + "/rt_" + r + ".o";
    if (fs::is_regular_file(rtdir + "/done")) return rt_objs;
    const std::string rtmp = fmt::format("{}.tmp.{}.{}", rtdir, getpid(), tmp_counter++);
    std::error_code ec;
    fs::create_directories(rtmp, ec);
    Cleanup rclean{rtmp};
    std::vector<std::pair<std::string, std::string>> tus;
    for (const auto& r : runtime) tus.emplace_back(root + "/include/" + r + ".cpp", "rt_" + r + ".o");
    write_file_atomic(rtmp + "/build.mk", make_file("done", "touch done", flags, tus, ""));
    std::string out;
    if (run_command({"make", "-s", "-j2", "-f", "build.mk", "done"}, rtmp, out) != 0)
        throw RtlBuildError(fmt::format("compiling Verilator's run-time failed:\n{}", output_tail(out)));
    fs::rename(rtmp, rtdir, ec);
    if (ec && !fs::is_regular_file(rtdir + "/done"))
        throw RtlBuildError(fmt::format("{}: cannot move the run-time into the cache ({})", rtdir, ec.message()));
    return rt_objs;
}

// 3. Compile the model, Verilator's run-time and the wrapper into model.so (make -j2).
void DesignBuild::compile_model() {
    std::string root;
    if (run_command({"verilator", "--getenv", "VERILATOR_ROOT"}, "", root) != 0)
        throw RtlBuildError("verilator --getenv VERILATOR_ROOT failed: " + trim(root));
    root = trim(root);
    write_file_atomic(tmp + "/obj/vpsim_wrapper.cpp", wrapper);
    bool needs_z = false;
    const std::string classes = read_all(tmp + "/obj/Vdut_classes.mk");
    const std::vector<std::string> runtime = runtime_files(classes, needs_z);
    const std::string flags = fmt::format(
        "-std=gnu++17 -O2 -fPIC -fvisibility=hidden -w -I{0}/include -I{0}/include/vltstd -DVM_COVERAGE={1} "
        "-DVM_TRACE={2} -DVM_TRACE_FST={3} -DVM_TRACE_VCD={4} -DVM_SC=0 -DVPSIM_HARNESS={3}",
        root, spec.coverage ? 1 : 0, spec.trace ? 1 : 0, spec.trace && !spec.trace_vcd ? 1 : 0, spec.trace_vcd ? 1 : 0);
    const std::string rt_objs = compile_runtime(root, flags, runtime);
    std::vector<std::string> sources;  // the generated files and the wrapper, in name order
    for (const auto& e : fs::directory_iterator(tmp + "/obj"))
        if (e.path().extension() == ".cpp") sources.push_back(e.path().filename().string());
    std::sort(sources.begin(), sources.end());
    std::vector<std::pair<std::string, std::string>> tus;
    if (parallel_builds(classes)) {
        for (const auto& f : sources) tus.emplace_back(tmp + "/obj/" + f, fs::path(f).stem().string() + ".o");
    } else {
        // One translation unit: the same code, so the same model, in a fifth of the compile time
        // (the built-in decoder's 8 files: 8.1 s of CPU one by one, 1.5 s as one; g++ 12 -O2).
        std::string all = "// The Verilated design and vpsim's wrapper as one translation unit (model/rtl/user_rtl.cpp).\n";
        for (const auto& f : sources) all += "#include \"" + f + "\"\n";
        write_file_atomic(tmp + "/obj/vpsim_all.cc", all);
        tus.emplace_back(tmp + "/obj/vpsim_all.cc", "vpsim_all.o");
    }
    write_file_atomic(tmp + "/build.mk",
                      make_file("model.so",
                                std::string("$(CXX) -shared -Wl,-Bsymbolic -o $@ $^ -lpthread") + (needs_z ? " -lz" : ""),
                                flags + " -I" + tmp + "/obj", tus, rt_objs));
    std::string out;
    if (run_command({"make", "-s", "-j2", "-f", "build.mk", "model.so"}, tmp, out) != 0) {
        write_file_atomic(dir + ".failed.log", out);
        throw RtlBuildError(fmt::format("compiling the Verilated design failed (log: {}.failed.log):\n{}", dir,
                                        output_tail(out)));
    }
}

// design.txt, only what a later run needs kept, then the rename: a concurrent builder of the
// same key may have won; then its entry is used.
void DesignBuild::publish() {
    write_design_info(tmp + "/design.txt", top.top, verilator_param_values(xml, top.top));
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(tmp))
        if (e.path().filename() != "model.so" && e.path().filename() != "design.txt") fs::remove_all(e.path(), ec);
    fs::rename(tmp, dir, ec);
    if (ec && !fs::is_regular_file(dir + "/model.so"))
        throw RtlBuildError(fmt::format("{}: cannot move the build into the cache ({})", dir, ec.message()));
}

void DesignBuild::run() {
    tmp = fmt::format("{}.tmp.{}.{}", dir, getpid(), tmp_counter++);
    std::error_code ec;
    fs::remove_all(tmp, ec);
    fs::create_directories(tmp + "/obj", ec);
    if (ec) throw RtlBuildError(fmt::format("{}: cannot create ({})", tmp, ec.message()));
    Cleanup cleanup{tmp};
    if (spec.verbose) std::fprintf(stderr, "vpsim: Verilating %s into %s\n", abs_sources.front().c_str(), dir.c_str());
    common = verilator_common_args(spec);
    read_ports();
    verilate();
    compile_model();
    publish();
}

// The cache entry's design.txt: the top module and the parameters' values.
void read_design_info(const std::string& file, std::string& top, std::vector<std::pair<std::string, std::string>>& params) {
    std::istringstream in(read_all(file));
    std::string kw, name, value;
    while (in >> kw) {
        if (kw == "top")
            in >> top;
        else if (kw == "param" && in >> name >> value)
            params.emplace_back(name, value);
    }
}

// The wrapper's entry points in the loaded model.so of the cache entry `dir`.
std::unique_ptr<UserRtl::Api> bind_api(void* handle, const std::string& dir) {
    auto api = std::make_unique<UserRtl::Api>();
    auto sym = [&](const char* n) {
        void* s = dlsym(handle, n);
        if (!s) throw RtlBuildError(fmt::format("{}/model.so: no symbol {} (delete the cache entry)", dir, n));
        return s;
    };
    auto& a = *api;
    a.abi = reinterpret_cast<int (*)()>(sym("vpsim_rtl_abi"));
    a.features = reinterpret_cast<int (*)()>(sym("vpsim_rtl_features"));
    a.make = reinterpret_cast<void* (*)()>(sym("vpsim_rtl_new"));
    a.destroy = reinterpret_cast<void (*)(void*)>(sym("vpsim_rtl_delete"));
    a.reset = reinterpret_cast<void (*)(void*)>(sym("vpsim_rtl_reset"));
    a.inputs = reinterpret_cast<unsigned (*)(void*, unsigned, uint32_t, unsigned, unsigned, unsigned)>(sym("vpsim_rtl_inputs"));
    a.event = reinterpret_cast<void (*)(void*, uint32_t*)>(sym("vpsim_rtl_event"));
    a.clock = reinterpret_cast<void (*)(void*)>(sym("vpsim_rtl_clock"));
    a.error = reinterpret_cast<int (*)(void*, int)>(sym("vpsim_rtl_error"));
    a.coverage_write = reinterpret_cast<int (*)(void*, const char*)>(sym("vpsim_rtl_coverage_write"));
    a.trace_open = reinterpret_cast<int (*)(void*, const char*)>(sym("vpsim_rtl_trace_open"));
    a.trace_close = reinterpret_cast<void (*)(void*)>(sym("vpsim_rtl_trace_close"));
    a.pins = reinterpret_cast<unsigned (*)(void*, unsigned, unsigned, unsigned, uint32_t, unsigned, unsigned, unsigned)>(
        sym("vpsim_rtl_pins"));
    a.golden = reinterpret_cast<int (*)(void*, unsigned, unsigned, const uint32_t*)>(sym("vpsim_rtl_golden"));
    if (a.abi() != 2) throw RtlBuildError(fmt::format("{}/model.so: wrong wrapper ABI", dir));
    return api;
}

}  // namespace

std::shared_ptr<UserRtl> build_user_rtl(const UserRtlSpec& spec) {
    if (spec.sources.empty()) throw RtlBuildError("--rtl: no source files");
    const char* const wrapper = spec.wrapper ? spec.wrapper : kUserRtlWrapper;
    std::string vversion;
    if (run_command({"verilator", "--version"}, "", vversion) != 0)
        throw RtlBuildError("cannot run verilator (is it installed? scripts/deps.sh installs it): " + trim(vversion));
    vversion = trim(vversion);
    std::vector<std::string> abs_sources;
    const Fnv key = design_key(spec, wrapper, vversion, abs_sources);
    // Absolute: Verilator and make run in the build directory (a relative --rtl-cache or
    // $VPSIM_RTL_CACHE was resolved from there and the build failed to write its files).
    const std::string cache = fs::absolute(spec.cache_dir.empty() ? default_rtl_cache_dir() : spec.cache_dir).string();
    std::error_code ec;
    fs::create_directories(cache, ec);
    if (ec) throw RtlBuildError(fmt::format("{}: cannot create the RTL cache directory ({})", cache, ec.message()));
    const std::string dir = cache + "/" + hex64(key.h);

    auto rtl = std::shared_ptr<UserRtl>(new UserRtl);
    rtl->coverage_ = spec.coverage;
    rtl->trace_ = spec.trace;
    rtl->cached_ = fs::is_regular_file(dir + "/model.so") && fs::is_regular_file(dir + "/design.txt");
    if (!rtl->cached_) DesignBuild{spec, wrapper, vversion, abs_sources, cache, dir, {}, {}, {}, {}, {}}.run();
    rtl->dir_ = dir;
    read_design_info(dir + "/design.txt", rtl->top_, rtl->params_);
    rtl->handle_ = dlopen((dir + "/model.so").c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!rtl->handle_) throw RtlBuildError(fmt::format("{}/model.so: cannot load ({})", dir, dlerror()));
    if (spec.wrapper) return rtl;  // another unit's wrapper: its caller looks up its entry points
    rtl->api_ = bind_api(rtl->handle_, dir);
    return rtl;
}

}  // namespace vpsim::rtl

#include "model/capture/capture_runner.h"

#include "model/capture/capture_reader.h"
#include "model/common/process.h"

#include <fmt/format.h>

#include <filesystem>
#include <fstream>
#include <iterator>

namespace vpsim::capture {

namespace fs = std::filesystem;

namespace {

bool same_file_contents(const fs::path& a, const fs::path& b) {
    std::ifstream x(a, std::ios::binary), y(b, std::ios::binary);
    const std::string s((std::istreambuf_iterator<char>(x)), {}), t((std::istreambuf_iterator<char>(y)), {});
    return x && y && s == t;
}

// "Z:\dir\file": the Windows name of an absolute Unix path (Wine's Z: is /).
std::string windows_path(const fs::path& p) {
    std::string s = "Z:" + p.string();
    for (char& c : s)
        if (c == '/') c = '\\';
    return s;
}

// Ends what Wine left running in the prefix (its wineserver and the programs under it).
void stop_wineserver(const std::string& wineserver, const std::string& prefix) {
    vpsim::RunOptions k;
    k.out = k.err = Stream::Null;
    k.timeout_seconds = 20;
    try {
        vpsim::run({"env", "WINEPREFIX=" + prefix, wineserver, "-k"}, k);
    } catch (const ProcessError&) {
    }
}

}  // namespace

std::vector<std::string> missing_tools(std::string& wine) {
    std::vector<std::string> m;
    wine = find_program("wine64");
    if (wine.empty()) wine = find_program("/usr/lib/wine/wine64");  // Debian's wine64 puts its loader there, not on PATH
    if (wine.empty()) m.push_back("wine64 (package wine64)");
    else if (find_program((fs::path(wine).parent_path() / "wineserver").string()).empty())
        m.push_back("wineserver beside " + wine + " (package wine64)");
    if (find_program("xvfb-run").empty()) m.push_back("xvfb-run (package xvfb)");
    if (find_program("xauth").empty()) m.push_back("xauth (package xauth)");
    return m;
}

RunReport run_capture(const RunOptions& o) {
    RunReport r;
    r.exit_code = 2;
    std::string wine;
    const auto missing = missing_tools(wine);
    if (!missing.empty()) {
        std::string list;
        for (const auto& s : missing) list += (list.empty() ? "" : ", ") + s;
        r.message = "missing: " + list + "; scripts/deps.sh installs them (vpsim installs nothing itself)";
        return r;
    }
    std::error_code ec;
    const fs::path program = fs::absolute(o.program, ec);
    if (!fs::is_regular_file(program, ec)) {
        r.message = o.program + ": no such program";
        return r;
    }
    if (!fs::is_regular_file(o.proxy, ec)) {
        r.message = o.proxy + ": the recorder d3d8.dll is not there (built with mingw-w64: scripts/deps.sh, then the build)";
        return r;
    }
    const fs::path beside = program.parent_path() / "d3d8.dll";
    const bool placed = !fs::exists(beside, ec);
    if (!placed && !same_file_contents(beside, o.proxy)) {
        r.message = beside.string() + " exists and is not vpsim's recorder: not overwritten";
        return r;
    }
    const std::string wineserver_dir = fs::path(wine).parent_path().string();
    const std::string wineserver = (fs::path(wineserver_dir) / "wineserver").string();
    const std::string path_env = "PATH=" + wineserver_dir + ":" + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin");
    const std::string prefix = fs::absolute(o.prefix).string();
    fs::create_directories(prefix, ec);
    const std::vector<std::string> xvfb = {"xvfb-run", "-a", "-s", "-screen 0 " + o.screen};
    if (!fs::exists(fs::path(prefix) / "system.reg")) {
        vpsim::RunOptions k;
        k.out = k.err = Stream::Capture;
        k.timeout_seconds = 120;
        k.own_process_group = true;
        std::vector<std::string> argv = {"env", path_env, "WINEPREFIX=" + prefix, "WINEDEBUG=-all", "WINEDLLOVERRIDES=mscoree,mshtml="};
        argv.insert(argv.end(), xvfb.begin(), xvfb.end());
        argv.insert(argv.end(), {wine, "wineboot", "-i"});
        const RunResult w = vpsim::run(argv, k);
        stop_wineserver(wineserver, prefix);
        r.wineboot_seconds = w.wall_seconds;
        r.made_prefix = true;
        if (!w.ok() || !fs::exists(fs::path(prefix) / "system.reg")) {
            r.message = fmt::format("{}: wineboot failed to make the Wine prefix ({}): {}", prefix, w.describe(), w.err);
            return r;
        }
    }
    if (placed) fs::copy_file(o.proxy, beside, ec);
    if (ec) {
        r.message = fmt::format("{}: cannot place the recorder beside the program: {}", beside.string(), ec.message());
        return r;
    }
    const fs::path out = fs::absolute(o.output);
    fs::remove(out, ec);
    vpsim::RunOptions k;
    k.out = Stream::Inherit;
    k.err = Stream::Capture;
    k.timeout_seconds = o.time_limit;
    k.own_process_group = true;
    k.cwd = program.parent_path().string();
    std::vector<std::string> argv = {"env", path_env, "WINEPREFIX=" + prefix, "WINEDEBUG=-all",
                                     "WINEDLLOVERRIDES=d3d8=n,b;mscoree,mshtml=;winedbg.exe=d",
                                     "VPSIM_CAPTURE_FILE=" + windows_path(out),
                                     fmt::format("VPSIM_CAPTURE_FIRST_FRAME={}", o.first_frame),
                                     fmt::format("VPSIM_CAPTURE_LAST_FRAME={}", o.last_frame)};
    argv.insert(argv.end(), xvfb.begin(), xvfb.end());
    argv.push_back(wine);
    argv.push_back(program.string());
    argv.insert(argv.end(), o.args.begin(), o.args.end());
    const RunResult p = vpsim::run(argv, k);
    stop_wineserver(wineserver, prefix);
    if (placed) fs::remove(beside, ec);
    r.program_seconds = p.wall_seconds;
    if (!fs::exists(out)) {
        r.message = fmt::format("{}: no capture written ({}); did the program use d3d8.dll? {}", o.program, p.describe(), p.err);
        return r;
    }
    const Capture c = read_capture(out.string());
    r.message = fmt::format("{}: {} complete frame{} recorded in {:.1f} s (the program: {})", out.string(), c.frames.size(),
                            c.frames.size() == 1 ? "" : "s", p.wall_seconds, p.describe());
    if (!c.error.empty()) r.message += "; the last frame was cut short: " + c.error;
    r.exit_code = p.ok() ? 0 : 1;
    if (!p.ok()) r.message += "; every complete frame is kept" + (p.err.empty() ? std::string() : "\n" + p.err);
    return r;
}

}  // namespace vpsim::capture

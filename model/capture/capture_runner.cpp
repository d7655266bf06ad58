#include "model/capture/capture_runner.h"

#include "model/capture/capture_reader.h"
#include "model/common/file_util.h"
#include "model/common/process.h"

#include <fmt/format.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

namespace vpsim::capture {

namespace fs = std::filesystem;

namespace {

bool same_file_contents(const fs::path& a, const fs::path& b) {
    std::string s, t, why;
    return read_input_file(a.string(), s, why) && read_input_file(b.string(), t, why) && s == t;
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

uint32_t le(const std::string& s, size_t at, int bytes) {
    uint32_t v = 0;
    for (int i = bytes - 1; i >= 0; --i) v = v << 8 | static_cast<unsigned char>(s[at + size_t(i)]);
    return v;
}

// Debian's i386 library folder: where wine32:i386's GL comes from (libwine:i386 only recommends it).
const char* kI386Libs = "/usr/lib/i386-linux-gnu";

// Makes the Wine prefix with `wine64 wineboot -i` when it has no system.reg. "" or the error.
std::string ensure_prefix(const std::string& wine64, const std::string& prefix, const std::vector<std::string>& env,
                          const std::vector<std::string>& xvfb, RunReport& r) {
    if (fs::exists(fs::path(prefix) / "system.reg")) return "";
    vpsim::RunOptions k;
    k.out = k.err = Stream::Capture;
    k.timeout_seconds = 120;
    k.own_process_group = true;
    std::vector<std::string> argv = env;
    argv.push_back("WINEDLLOVERRIDES=mscoree,mshtml=");
    argv.insert(argv.end(), xvfb.begin(), xvfb.end());
    argv.insert(argv.end(), {wine64, "wineboot", "-i"});
    const RunResult w = vpsim::run(argv, k);
    stop_wineserver((fs::path(wine64).parent_path() / "wineserver").string(), prefix);
    r.wineboot_seconds = w.wall_seconds;
    r.made_prefix = true;
    if (!w.ok() || !fs::exists(fs::path(prefix) / "system.reg"))
        return fmt::format("{}: wineboot failed to make the Wine prefix ({}): {}", prefix, w.describe(), w.err);
    return "";
}

// After the run: the pictures asked for, written or not (the recorder leaves FRAME.error with the
// reason when it could not read the back buffer). "" when every one is there.
std::string collect_shots(const RunOptions& o, const fs::path& out, size_t frames_recorded, RunReport& r) {
    std::string missing;
    std::error_code ec;
    for (uint32_t f : o.shots) {
        const fs::path png = shot_path(out.string(), f);
        fs::path err = png;
        err.replace_extension(".error");
        fs::remove(png.string() + ".part", ec);
        std::string why;
        if (fs::exists(err)) {
            std::string text, unread;
            read_input_file(err.string(), text, unread);
            why = "the recorder: " + text;
            fs::remove(err, ec);
        } else if (!fs::exists(png)) {
            why = f >= frames_recorded ? "the program did not reach it" : "not written";
        }
        if (why.empty()) r.pictures.push_back(png.string());
        else missing += fmt::format("{}no picture of frame {}: {}", missing.empty() ? "" : "; ", f, why);
    }
    return missing;
}

}  // namespace

const char* arch_name(Arch a) { return a == Arch::I686 ? "i686" : "x86-64"; }

ProgramArch program_arch(const std::string& path) {
    ProgramArch p;
    std::ifstream f(path, std::ios::binary);
    if (!f) {
        p.error = path + ": cannot be read";
        return p;
    }
    std::string s(64, '\0');
    f.read(s.data(), 64);
    if (f.gcount() < 64 || s[0] != 'M' || s[1] != 'Z') {
        p.error = path + ": byte offset 0: not a Windows program (no MZ header of 64 bytes)";
        return p;
    }
    const uint32_t pe = le(s, 0x3C, 4);
    std::string h(6, '\0');  // the PE signature and the machine field
    f.seekg(pe);
    f.read(h.data(), 6);
    if (!f || h.compare(0, 4, std::string("PE\0\0", 4)) != 0) {
        p.error = fmt::format("{}: byte offset {}: no PE signature where the MZ header's e_lfanew (byte offset 60) points", path, pe);
        return p;
    }
    const uint32_t machine = le(h, 4, 2);
    if (machine == 0x8664) p.arch = Arch::X86_64;
    else if (machine == 0x014C) p.arch = Arch::I686;
    else {
        p.error = fmt::format("{}: byte offset {}: PE machine 0x{:04X} is not one vpsim capture records (x86-64 0x8664, "
                              "i386 0x014C)", path, pe + 4, machine);
        return p;
    }
    p.ok = true;
    return p;
}

std::vector<std::string> missing_tools(Arch a, std::string& wine64, std::string& loader) {
    std::vector<std::string> m;
    wine64 = find_program("wine64");
    if (wine64.empty()) wine64 = find_program("/usr/lib/wine/wine64");  // Debian's wine64 puts its loader there, not on PATH
    if (wine64.empty()) m.push_back("wine64 (package wine64)");
    else if (find_program((fs::path(wine64).parent_path() / "wineserver").string()).empty())
        m.push_back("wineserver beside " + wine64 + " (package wine64)");
    loader = wine64;
    if (a == Arch::I686) {
        // Debian's wine32:i386 puts the 32-bit loader beside wine64; elsewhere `wine` on PATH.
        loader = find_program("/usr/lib/wine/wine");
        if (loader.empty()) loader = find_program("wine");
        if (loader.empty()) m.push_back("the 32-bit Wine loader wine (package wine32:i386)");
        if (fs::is_directory(kI386Libs) && !fs::exists(fs::path(kI386Libs) / "libGL.so.1"))
            m.push_back(fmt::format("{}/libGL.so.1 (packages libgl1:i386 libgl1-mesa-dri:i386)", kI386Libs));
    }
    if (find_program("xvfb-run").empty()) m.push_back("xvfb-run (package xvfb)");
    if (find_program("xauth").empty()) m.push_back("xauth (package xauth)");
    return m;
}

std::string shot_path(const std::string& capture, uint32_t frame) {
    fs::path p(capture);
    p.replace_filename(p.stem().string() + fmt::format(".frame{}.png", frame));
    return p.string();
}

RunReport run_capture(const RunOptions& o) {
    RunReport r;
    r.exit_code = 2;
    std::error_code ec;
    const fs::path program = fs::absolute(o.program, ec);
    if (!fs::is_regular_file(program, ec)) {
        r.message = o.program + ": no such program";
        return r;
    }
    const ProgramArch pa = program_arch(program.string());
    if (!pa.ok) {
        r.message = pa.error;
        return r;
    }
    r.arch = pa.arch;
    std::string wine64, loader;
    const auto missing = missing_tools(pa.arch, wine64, loader);
    if (!missing.empty()) {
        std::string list;
        for (const auto& s : missing) list += (list.empty() ? "" : ", ") + s;
        r.message = fmt::format("missing: {}; scripts/deps.sh{} installs them (vpsim installs nothing itself)", list,
                                pa.arch == Arch::I686 ? " --capture32" : "");
        return r;
    }
    const bool i686 = pa.arch == Arch::I686;
    const std::string proxy = !o.proxy.empty() ? o.proxy : i686 ? o.proxy_i686 : o.proxy_x86_64;
    if (proxy.empty() || !fs::is_regular_file(proxy, ec)) {
        r.message = fmt::format("{}: the {} recorder d3d8.dll is not there (built with mingw-w64 when {} is installed: "
                                "scripts/deps.sh{}, then configure and build again)",
                                proxy.empty() ? (i686 ? "capture/i686/d3d8.dll in vpsim's data directory"
                                                      : "capture/d3d8.dll in vpsim's data directory")
                                              : proxy,
                                arch_name(pa.arch), i686 ? "g++-mingw-w64-i686" : "g++-mingw-w64-x86-64",
                                i686 ? " --capture32" : "");
        return r;
    }
    const ProgramArch da = program_arch(proxy);
    if (!da.ok || da.arch != pa.arch) {
        r.message = da.ok ? fmt::format("{} is an {} DLL and {} an {} program: the recorder must match the program",
                                        proxy, arch_name(da.arch), o.program, arch_name(pa.arch))
                          : da.error;
        return r;
    }
    const fs::path beside = program.parent_path() / "d3d8.dll";
    const bool placed = !fs::exists(beside, ec);
    if (!placed && !same_file_contents(beside, proxy)) {
        r.message = beside.string() + " exists and is not vpsim's recorder: not overwritten";
        return r;
    }
    const std::string wine_dir = fs::path(wine64).parent_path().string();
    const std::string wineserver = (fs::path(wine_dir) / "wineserver").string();
    const std::string prefix = fs::absolute(o.prefix).string();
    const std::vector<std::string> env = {
        "env", "PATH=" + wine_dir + ":" + (std::getenv("PATH") ? std::getenv("PATH") : "/usr/bin:/bin"),
        "WINEPREFIX=" + prefix, "WINEDEBUG=-all"};
    const std::vector<std::string> xvfb = {"xvfb-run", "-a", "-s", "-screen 0 " + o.screen};
    fs::create_directories(prefix, ec);
    r.message = ensure_prefix(wine64, prefix, env, xvfb, r);
    if (!r.message.empty()) return r;
    if (i686 && !fs::exists(fs::path(prefix) / "drive_c/windows/syswow64/kernel32.dll")) {
        r.message = prefix + ": this Wine prefix was made without 32-bit Wine (no drive_c/windows/syswow64/kernel32.dll; "
                             "`wineboot -u` does not add it): 32-bit programs need a prefix made with wine32 installed; "
                             "give --prefix a new folder (it is made) or remove this one";
        return r;
    }
    if (placed) fs::copy_file(proxy, beside, ec);
    if (ec) {
        r.message = fmt::format("{}: cannot place the recorder beside the program: {}", beside.string(), ec.message());
        return r;
    }
    const fs::path out = fs::absolute(o.output);
    fs::remove(out, ec);
    std::string shot_list;
    for (uint32_t f : o.shots) {
        fs::remove(shot_path(out.string(), f), ec);
        shot_list += (shot_list.empty() ? "" : ",") + std::to_string(f);
    }
    vpsim::RunOptions k;
    k.out = Stream::Inherit;
    k.err = Stream::Capture;
    k.timeout_seconds = o.time_limit;
    k.own_process_group = true;
    k.cwd = program.parent_path().string();
    std::vector<std::string> argv = env;
    argv.insert(argv.end(), {"WINEDLLOVERRIDES=d3d8=n,b;mscoree,mshtml=;winedbg.exe=d", "VPSIM_CAPTURE_FILE=" + windows_path(out),
                             fmt::format("VPSIM_CAPTURE_FIRST_FRAME={}", o.first_frame),
                             fmt::format("VPSIM_CAPTURE_LAST_FRAME={}", o.last_frame)});
    if (!o.shots.empty()) {
        argv.push_back("VPSIM_CAPTURE_SHOTS=" + shot_list);
        const std::string png0 = shot_path(out.string(), 0);
        argv.push_back("VPSIM_CAPTURE_SHOT_PREFIX=" + windows_path(png0.substr(0, png0.size() - 5)));  // "...frame"
    }
    argv.insert(argv.end(), xvfb.begin(), xvfb.end());
    argv.push_back(loader);
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
    r.message = fmt::format("{}: {} complete frame{} recorded in {:.1f} s ({} program: {})", out.string(), c.frames.size(),
                            c.frames.size() == 1 ? "" : "s", p.wall_seconds, arch_name(pa.arch), p.describe());
    if (!c.error.empty()) r.message += "; the last frame was cut short: " + c.error;
    r.exit_code = p.ok() ? 0 : 1;
    if (!p.ok()) r.message += "; every complete frame is kept" + (p.err.empty() ? std::string() : "\n" + p.err);
    const std::string no_pictures = collect_shots(o, out, c.frames.size(), r);
    for (const auto& png : r.pictures) r.message += "\n" + png + ": the back buffer before its frame's Present";
    if (!no_pictures.empty()) {
        r.message += "\n" + no_pictures;
        r.exit_code = 1;
    }
    return r;
}

}  // namespace vpsim::capture

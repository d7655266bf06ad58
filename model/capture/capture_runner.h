// `vpsim capture run`: records a Windows D3D8 program under Wine through the proxy d3d8.dll
// (docs/capture.md, "Recording"). Installs nothing: names the Debian packages that are missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::capture {

// A Windows program's architecture: its PE header's machine field.
enum class Arch { X86_64, I686 };
const char* arch_name(Arch a);  // "x86-64", "i686"

struct ProgramArch {
    bool ok = false;
    Arch arch = Arch::X86_64;
    std::string error;  // "FILE: byte offset N: ..." when !ok
};
// Reads the machine field of `path`'s PE header (x86-64 0x8664, i386 0x014C); another machine,
// a file that is not a PE image or is cut short is an error naming the file, the offset and the rule.
ProgramArch program_arch(const std::string& path);

struct RunOptions {
    std::string program;             // PROGRAM.exe
    std::vector<std::string> args;   // its arguments
    std::string output;              // the capture file
    std::string proxy;               // the recorder d3d8.dll given by the user ("": the one of the program's architecture)
    std::string proxy_x86_64, proxy_i686;  // vpsim's own recorders ("": not built)
    std::string prefix;              // WINEPREFIX (made with wineboot when it has no system.reg)
    uint32_t first_frame = 0, last_frame = 0xFFFFFFFFu;
    std::vector<uint32_t> shots;     // frames whose back buffer is kept as a picture, ascending
    double time_limit = 60;          // seconds for the program (wineboot has its own 120 s)
    std::string screen = "640x480x24";  // Xvfb's screen
};

struct RunReport {
    int exit_code = 0;     // vpsim's: 0 recorded, 1 the program failed / timed out (complete frames kept) or a
                           // picture asked for is missing, 2 cannot run
    std::string message;   // what happened, for stderr / stdout
    double wineboot_seconds = 0, program_seconds = 0;
    bool made_prefix = false;
    Arch arch = Arch::X86_64;
    std::vector<std::string> pictures;  // the reference pictures written (--shots)
};

// The programs the runner needs for a program of architecture `a` that are missing, with their
// Debian packages ("wine64 (package wine64)"); empty when all are there. `wine64` is set to the
// 64-bit Wine loader found (it makes the prefix), `loader` to the one that runs the program
// (wine64, or the 32-bit `wine` of Debian's wine32:i386).
std::vector<std::string> missing_tools(Arch a, std::string& wine64, std::string& loader);

// The picture of frame `frame` beside `capture`: "dir/spin.vpcap" -> "dir/spin.frame<frame>.png".
std::string shot_path(const std::string& capture, uint32_t frame);

RunReport run_capture(const RunOptions& o);

}  // namespace vpsim::capture

// `vpsim capture run`: records a Windows D3D8 program under Wine through the proxy d3d8.dll
// (docs/capture.md, "Recording"). Installs nothing: names the Debian packages that are missing.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::capture {

struct RunOptions {
    std::string program;             // PROGRAM.exe
    std::vector<std::string> args;   // its arguments
    std::string output;              // the capture file
    std::string proxy;               // the recorder d3d8.dll
    std::string prefix;              // WINEPREFIX (made with wineboot when it has no system.reg)
    uint32_t first_frame = 0, last_frame = 0xFFFFFFFFu;
    double time_limit = 60;          // seconds for the program (wineboot has its own 120 s)
    std::string screen = "640x480x24";  // Xvfb's screen
};

struct RunReport {
    int exit_code = 0;     // vpsim's: 0 recorded, 1 the program failed / timed out (complete frames kept), 2 cannot run
    std::string message;   // what happened, for stderr / stdout
    double wineboot_seconds = 0, program_seconds = 0;
    bool made_prefix = false;
};

// The programs the runner needs that are missing, with their Debian packages ("wine64 (package
// wine64)"); empty when all are there. `wine` is set to the Wine loader found.
std::vector<std::string> missing_tools(std::string& wine);

RunReport run_capture(const RunOptions& o);

}  // namespace vpsim::capture

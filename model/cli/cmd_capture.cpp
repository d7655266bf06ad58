// vpsim capture: real D3D8 programs as workloads (docs/capture.md). `run` records a Windows
// program under Wine through the recorder d3d8.dll; `info` summarises a capture; `convert`
// turns it into a scene (docs/scenes.md). The work is in model/capture.
#include "model/capture/capture_convert.h"
#include "model/capture/capture_info.h"
#include "model/capture/capture_reader.h"
#include "model/capture/capture_runner.h"
#include "model/cli/commands.h"
#include "model/common/file_util.h"
#include "model/common/printable.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

// "A-B" or "A" (frame numbers) into first / last; false when neither.
bool parse_frames(const std::string& t, uint32_t& first, uint32_t& last) {
    auto num = [](const std::string& s, uint32_t& out) {
        if (s.empty() || s.size() > 9 || s.find_first_not_of("0123456789") != std::string::npos) return false;
        out = uint32_t(std::stoul(s));
        return true;
    };
    const size_t dash = t.find('-');
    if (dash == std::string::npos) return num(t, first) && num(t, last);
    return num(t.substr(0, dash), first) && num(t.substr(dash + 1), last) && first <= last;
}

const char* kFramesHelp = "A-B (or A): frame numbers, counted from 0 at the first Present";

// "0,2,5-7": frame numbers and ranges, into ascending distinct frames; false when malformed.
bool parse_shots(const std::string& t, std::vector<uint32_t>& out) {
    size_t at = 0;
    while (at <= t.size()) {
        const size_t comma = std::min(t.find(',', at), t.size());
        uint32_t a = 0, b = 0;
        if (!parse_frames(t.substr(at, comma - at), a, b) || b - a > 100000) return false;
        for (uint32_t f = a; f <= b; ++f) out.push_back(f);
        at = comma + 1;
    }
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return !out.empty();
}

struct CaptureArgs {
    std::vector<std::string> command;  // PROGRAM.exe ARGS
    std::string output, proxy, prefix, frames, shots, capture, screen = "640x480x24", buffer_encoding = "base64";
    double time_limit = 60;
    bool json = false;
};

int run_record(const CaptureArgs& a) {
    capture::RunOptions o;
    o.program = a.command[0];
    o.args.assign(a.command.begin() + 1, a.command.end());
    if (!a.frames.empty() && !parse_frames(a.frames, o.first_frame, o.last_frame)) {
        std::fprintf(stderr, "vpsim capture run: --frames %s: expected %s\n", printable(a.frames, 100, true).c_str(), kFramesHelp);
        return 2;
    }
    if (!a.shots.empty() && !parse_shots(a.shots, o.shots)) {
        std::fprintf(stderr, "vpsim capture run: --shots %s: expected frame numbers and ranges, e.g. 0,2,5-7\n",
                     printable(a.shots, 100, true).c_str());
        return 2;
    }
    if (!o.shots.empty() && o.shots.back() > o.last_frame) {
        std::fprintf(stderr, "vpsim capture run: --shots: frame %u is after the last frame recorded (--frames %s)\n",
                     o.shots.back(), a.frames.c_str());
        return 2;
    }
    o.output = a.output.empty() ? std::filesystem::path(o.program).stem().string() + ".vpcap" : a.output;
    o.proxy = a.proxy;
    o.proxy_x86_64 = data_path("capture/d3d8.dll");
    o.proxy_i686 = data_path("capture/i686/d3d8.dll");
    if (!a.prefix.empty()) {
        o.prefix = a.prefix;
    } else {
        const auto dirs = data_dirs();
        o.prefix = dirs.empty() ? "capture-wineprefix" : (std::filesystem::path(dirs[0]) / "capture-wineprefix").string();
    }
    o.time_limit = a.time_limit;
    o.screen = a.screen;
    const capture::RunReport r = capture::run_capture(o);
    if (r.made_prefix) std::fprintf(stderr, "vpsim capture run: made the Wine prefix %s (wineboot %.1f s)\n", o.prefix.c_str(), r.wineboot_seconds);
    std::fprintf(r.exit_code ? stderr : stdout, "%s%s\n", r.exit_code ? "vpsim capture run: " : "", r.message.c_str());
    return r.exit_code;
}

int run_info(const CaptureArgs& a) {
    const capture::Capture c = capture::read_capture(a.capture);
    const auto f = capture::capture_info(c);
    if (a.json) std::printf("%s\n", capture::info_json(c, f).dump(1).c_str());
    else std::printf("%s", capture::info_text(c, f).c_str());
    if (!c.error.empty()) {
        std::fprintf(stderr, "vpsim capture info: %s (%zu frame%s before it summarised)\n", c.error.c_str(), c.frames.size(),
                     c.frames.size() == 1 ? "" : "s");
        return 2;
    }
    return 0;
}

int run_convert(const CaptureArgs& a) {
    const capture::Capture c = capture::read_capture(a.capture);
    capture::ConvertOptions o;
    o.first = c.first_frame;
    o.last = c.last_frame;
    if (!a.frames.empty() && !parse_frames(a.frames, o.first, o.last)) {
        std::fprintf(stderr, "vpsim capture convert: --frames %s: expected %s\n", printable(a.frames, 100, true).c_str(), kFramesHelp);
        return 2;
    }
    if (!a.frames.empty() && c.error.empty() && o.last >= c.frames.size()) {
        std::fprintf(stderr, "vpsim capture convert: %s: --frames %s: the capture has frames 0..%zu\n", a.capture.c_str(),
                     a.frames.c_str(), c.frames.size() ? c.frames.size() - 1 : 0);
        return 2;
    }
    o.base64 = a.buffer_encoding == "base64";
    const capture::ConvertResult r = capture::convert_capture(c, o);
    if (r.frames == 0) {
        std::fprintf(stderr, "vpsim capture convert: %s; no frame converted, nothing written\n",
                     r.error.empty() ? (a.capture + ": no frame in the range").c_str() : r.error.c_str());
        return 2;
    }
    write_file_atomic(a.output, r.scene.dump() + "\n");
    std::printf("%s: %u frame%s, %llu draws", a.output.c_str(), r.frames, r.frames == 1 ? "" : "s",
                static_cast<unsigned long long>(r.draws));
    if (r.updates)
        std::printf(", %llu buffer update%s (%llu bytes)", static_cast<unsigned long long>(r.updates),
                    r.updates == 1 ? "" : "s", static_cast<unsigned long long>(r.update_bytes));
    std::printf("\n");
    if (r.refused)
        std::fprintf(stderr, "vpsim capture convert: %llu call%s the runtime refused, left out\n",
                     static_cast<unsigned long long>(r.refused), r.refused == 1 ? "" : "s");
    if (!r.windows_refused.empty()) {
        uint64_t total = 0;
        std::string kinds;
        for (const auto& [what, n] : r.windows_refused) {
            total += n;
            kinds += fmt::format("{}{} x {}", kinds.empty() ? "" : "; ", n, what);
        }
        std::fprintf(stderr, "vpsim capture convert: %llu call%s Windows' runtime refuses (Wine accepted), left out: %s\n",
                     static_cast<unsigned long long>(total), total == 1 ? "" : "s", kinds.c_str());
    }
    if (!r.not_expressible.empty()) {
        uint64_t total = 0;
        std::string kinds;
        for (const auto& [what, n] : r.not_expressible) {
            total += n;
            kinds += fmt::format("{}{} x {}", kinds.empty() ? "" : "; ", n, what);
        }
        std::fprintf(stderr,
                     "vpsim capture convert: %llu call%s Windows' runtime accepts that vpsim's D3D8 vertex shader ISA "
                     "cannot express, left out: %s\n",
                     static_cast<unsigned long long>(total), total == 1 ? "" : "s", kinds.c_str());
    }
    if (r.past_end_draws)
        std::fprintf(stderr,
                     "vpsim capture convert: %llu draw%s read%s past the end of a vertex buffer (undefined in D3D8): "
                     "read as zeros, %llu zero byte%s added after the buffers' ends\n",
                     static_cast<unsigned long long>(r.past_end_draws), r.past_end_draws == 1 ? "" : "s",
                     r.past_end_draws == 1 ? "s" : "", static_cast<unsigned long long>(r.past_end_zero_bytes),
                     r.past_end_zero_bytes == 1 ? "" : "s");
    for (const auto& [what, n] : r.dropped)
        std::fprintf(stderr, "vpsim capture convert: left out %llu x %s\n", static_cast<unsigned long long>(n), what.c_str());
    if (!r.error.empty()) {
        std::fprintf(stderr, "vpsim capture convert: %s (%u frame%s before it converted)\n", r.error.c_str(), r.frames,
                     r.frames == 1 ? "" : "s");
        return 2;
    }
    return 0;
}

}  // namespace

void add_capture_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<CaptureArgs>();
    CLI::App* cap = app.add_subcommand(
        "capture", "Real D3D8 programs as workloads (docs/capture.md): record one under Wine (run), summarise a capture "
                   "(info), convert it to a scene (convert)");
    cap->require_subcommand(1);
    CLI::App* run = cap->add_subcommand(
        "run",
        "Record PROGRAM.exe under Wine in Xvfb through vpsim's recorder d3d8.dll, placed beside the program for "
        "the run (WINEDLLOVERRIDES=d3d8=n,b). The program's PE header says its architecture: x86-64 programs run "
        "under wine64 with the x86-64 recorder, 32-bit (i386) ones under Debian's wine32 with the i686 recorder. Needs "
        "wine64, xvfb-run and xauth, and for 32-bit programs wine32:i386 and its GL (scripts/deps.sh installs them, "
        "--capture32 the 32-bit ones; this command installs nothing and names what is missing). Makes the Wine prefix "
        "with wineboot when it has none. A frame is written whole at each Present: a program that crashes or passes "
        "--time-limit leaves every complete frame readable.\nExit status: 0 recorded, 1 the program failed or timed "
        "out (its complete frames kept) or a picture asked for by --shots is missing, 2 usage, a missing tool or no "
        "capture.");
    run->add_option("command", a->command, "-- PROGRAM.exe ARGS")->required();
    run->add_option("-o,--out", a->output, "The capture to write (default: the program's name with .vpcap)");
    run->add_option("--frames", a->frames,
                    "A-B: record up to frame B, then end the program (frames before A are recorded too, their state is "
                    "needed; convert keeps the draws of A-B by default)");
    run->add_option("--shots", a->shots,
                    "LIST: frames whose back buffer is kept as a reference picture, e.g. 0,2,5-7: CAPTURE's name with "
                    ".frameN.png, beside it (read before the frame's Present)");
    run->add_option("--prefix", a->prefix, "The Wine prefix (default: capture-wineprefix in vpsim's data directory)");
    run->add_option("--proxy", a->proxy, "The recorder d3d8.dll, of the program's architecture (default: capture/d3d8.dll, for "
                                         "32-bit programs capture/i686/d3d8.dll, in vpsim's data directory)");
    run->add_option("--time-limit", a->time_limit, "Seconds the program may run (default 60)")->check(CLI::Range(1.0, 86400.0));
    run->add_option("--screen", a->screen, "Xvfb's screen, WxHxDEPTH (default 640x480x24)");
    run->callback([a, &exit_code] { exit_code = run_record(*a); });

    CLI::App* info = cap->add_subcommand(
        "info", "Summarise a capture frame by frame: calls, draws, vertices, shader / fixed-function / user-pointer draws, "
                "constant registers and buffer bytes written, state calls, state-block calls, ProcessVertices and Reset."
                "\nExit status: 0, 2 a damaged capture (the "
                "frames before the damage are summarised, the damage located) or usage.");
    info->add_option("CAPTURE", a->capture, "The capture file")->required();
    info->add_flag("--json", a->json, "JSON output");
    info->callback([a, &exit_code] { exit_code = run_info(*a); });

    CLI::App* conv = cap->add_subcommand(
        "convert", "Convert a capture to a scene for scene-exec, run, sweep and report (docs/capture.md, \"Conversion\"): "
                   "state blocks and Reset become the Set* calls with their effect (as Wine's d3d8 applies them), "
                   "ProcessVertices its recorded result bytes.\n"
                   "Exit status: 0, 2 usage or a damaged capture (the frames before the damage are converted and "
                   "written, the damage located: frame, call, byte offset).");
    conv->add_option("CAPTURE", a->capture, "The capture file")->required();
    conv->add_option("-o,--out", a->output, "The scene to write")->required();
    conv->add_option("--frames", a->frames,
                     "A-B: the frames whose draws the scene keeps (default: the range given to capture run, else all)");
    conv->add_option("--buffer-encoding", a->buffer_encoding,
                     "How buffer and UpdateBuffer bytes are written: base64 (default: a \"base64\" string, compact and "
                     "quick to load) or array (\"bytes\": an array of numbers, for tools that read them as JSON)")
        ->check(CLI::IsMember({"base64", "array"}));
    conv->callback([a, &exit_code] { exit_code = run_convert(*a); });
}

}  // namespace vpsim::cli

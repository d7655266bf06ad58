#include "model/bench/memory.h"

#include "model/common/process.h"
#include "model/scene/default_scene.h"
#include "model/scene/scene.h"

#include <fmt/format.h>

#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <stdexcept>
#include <tuple>
#include <utility>

namespace vpsim::bench {

// The default scene with its sphere made `side` x `side` vertices (slices = stacks = side - 1),
// 32-bit indices above 65,536 vertices, and the draw's counts to match.
nlohmann::ordered_json default_scene_with_side(uint32_t side) {
    nlohmann::ordered_json j = scene::default_scene_json();
    const uint64_t quads = side - 1, vertices = uint64_t(side) * side;
    auto& sphere = j.at("buffers").at("sphere");
    sphere["slices"] = quads;
    sphere["stacks"] = quads;
    sphere["indices"] = vertices > 65536 ? "INDEX32" : "INDEX16";
    int draws = 0;
    for (auto& c : j.at("commands"))
        if (c.at("op") == "DrawIndexedPrimitive") {
            c["num_vertices"] = vertices;
            c["primitive_count"] = 2 * quads * quads;
            ++draws;
        }
    if (draws != 1) throw std::logic_error("the default scene no longer has exactly one DrawIndexedPrimitive");
    j["description"] = fmt::format("vpsim bench run: the default scene with a {} x {}-vertex sphere", side, side);
    return j;
}

namespace {

// A scene file under the temporary directory, removed when this goes out of scope.
class TempSceneFile {
public:
    explicit TempSceneFile(const std::string& text) {
        std::string name = (std::filesystem::temp_directory_path() / "vpsim-bench-XXXXXX.json").string();
        const int fd = ::mkstemps(name.data(), 5);
        if (fd < 0) throw std::runtime_error(fmt::format("{}: cannot create: {}", name, std::strerror(errno)));
        path_ = name;
        size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n < 0 && errno == EINTR) continue;
            if (n <= 0) {
                const int err = errno;
                ::close(fd);
                throw std::runtime_error(fmt::format("{}: cannot write: {}", path_, std::strerror(err)));
            }
            done += size_t(n);
        }
        if (::close(fd) != 0) throw std::runtime_error(fmt::format("{}: cannot write: {}", path_, std::strerror(errno)));
    }
    ~TempSceneFile() { ::unlink(path_.c_str()); }
    TempSceneFile(const TempSceneFile&) = delete;
    TempSceneFile& operator=(const TempSceneFile&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

// This process's resident anonymous memory (resident minus file-backed and shared pages): what a
// forked child holds until execv replaces it.
uint64_t anonymous_resident_bytes() {
    std::ifstream in("/proc/self/statm");
    uint64_t size = 0, resident = 0, shared = 0;
    if (!(in >> size >> resident >> shared)) return 0;
    return (resident - std::min(resident, shared)) * uint64_t(::sysconf(_SC_PAGESIZE));
}

// Runs the vpsim binary `exe` with `args` (argv[1..]) and returns its own peak resident memory
// (ru_maxrss) and wall time. Throws std::runtime_error unless it exits with status 0.
std::pair<uint64_t, double> run_child(const std::string& exe, const std::vector<std::string>& args) {
    std::vector<std::string> argv = {"vpsim"};
    argv.insert(argv.end(), args.begin(), args.end());
    std::string command = "vpsim";
    for (const auto& s : args) command += " " + s;
    SpawnOptions o;
    o.program = exe;
    o.stdin_null = false;
    ExitStatus st;
    try {
        st = *spawn(argv, o).wait();
    } catch (const ProcessError& e) {
        throw std::runtime_error(fmt::format("{}: {}", command, e.what()));
    }
    if (!st.exited)
        throw std::runtime_error(fmt::format("`{}` was killed by signal {} ({})", command, st.signal, ::strsignal(st.signal)));
    if (st.code != 0) throw std::runtime_error(fmt::format("`{}` exited with status {}", command, st.code));
    return {st.max_rss_bytes, st.wall_seconds};
}

}  // namespace

MemoryReport measure_memory(const std::string& exe) {
    MemoryReport m;
    for (const auto& [label, side] : {std::pair<const char*, uint32_t>{"10k", 100}, {"1M", 1000}}) {
        MemorySample s;
        s.label = label;
        s.side = side;
        s.vertices = uint64_t(side) * side;
        s.triangles = 2 * uint64_t(side - 1) * (side - 1);
        const TempSceneFile file(default_scene_with_side(side).dump(2) + "\n");
        m.launcher_anon_bytes = std::max(m.launcher_anon_bytes, anonymous_resident_bytes());
        try {
            std::tie(s.peak_bytes, s.seconds) = run_child(exe, {"run", file.path(), "--quiet", "--no-progress"});
        } catch (const std::runtime_error& e) {
            throw std::runtime_error(fmt::format("the {}-vertex scene: {}", s.label, e.what()));
        }
        m.samples.push_back(s);
    }
    for (auto& s : m.samples) {  // after the children: the 1M scene's buffers are ~60 MB here too
        const scene::Scene sc = scene::parse_scene(default_scene_with_side(s.side), "", "<bench " + s.label + ">");
        for (const auto& [name, b] : sc.buffers) s.buffer_bytes += b.bytes.size();
    }
    return m;
}

}  // namespace vpsim::bench

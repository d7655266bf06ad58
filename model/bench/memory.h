// bench run's memory measurement (docs/bench.md): `vpsim run` on the default scene with its
// sphere resized to 10,000 and 1,000,000 vertices, each in a child process whose peak resident
// memory (wait4's ru_maxrss) is set against the scene's own buffers.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::bench {

// `vpsim run` on the default scene with its sphere resized, in a child process.
struct MemorySample {
    std::string label;         // "10k"
    uint32_t side = 0;         // vertices per row and column of the sphere
    uint64_t vertices = 0, triangles = 0;
    uint64_t buffer_bytes = 0;  // the scene's vertex and index buffers
    uint64_t peak_bytes = 0;    // the child's ru_maxrss
    double seconds = 0;         // the child's wall time
    int64_t beyond_buffers() const { return int64_t(peak_bytes) - int64_t(buffer_bytes); }
};

struct MemoryReport {
    std::vector<MemorySample> samples;  // the smallest first
    uint64_t launcher_anon_bytes = 0;   // this process's anonymous resident memory when it forked
};

// The default scene with its sphere made `side` x `side` vertices (slices = stacks = side - 1),
// 32-bit indices above 65,536 vertices, and the draw's counts to match.
nlohmann::ordered_json default_scene_with_side(uint32_t side);

// Runs `vpsim_exe run SCENE --quiet --no-progress` for the 10k and the 1M scene (argv[0]
// "vpsim"). Call it before this process allocates anything large: a child's ru_maxrss includes
// the memory it had between fork and exec, a copy of this process's resident pages. Throws
// std::runtime_error when a child cannot be started or does not exit with status 0.
MemoryReport measure_memory(const std::string& vpsim_exe = "/proc/self/exe");

}  // namespace vpsim::bench

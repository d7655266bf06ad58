// vpsim import behind a wall (docs/import.md, "Reading behind a wall"): the model is read and
// the scene built in a forked child (vpsim::run_function, model/common/process.h) with a time
// and a memory limit, so that a crash, a hang or a runaway allocation inside libassimp ends the
// child, not the command: each is an ImportError naming the file and the limit or the signal.
// The child hands the finished files to this process through a pipe; only this process writes,
// atomically (write_import), so nothing partly written is ever left behind.
#pragma once

#include "model/import/assimp_import.h"

#include <cstdint>
#include <string>

namespace vpsim::import {

struct ImportLimits {
    double time_seconds = 20;    // wall time of the reading child; at the limit it is killed (SIGKILL)
    uint64_t memory_mib = 4096;  // the reading child's address space (RLIMIT_AS); in an AddressSanitizer
                                 // build, which reserves terabytes of address space, its resident set
};

constexpr double kMinTimeLimit = 0.1, kMaxTimeLimit = 86400;
constexpr uint64_t kMinMemoryMiB = 64, kMaxMemoryMiB = uint64_t(1) << 20;

// ImportError naming the option and its range when a limit is outside it.
void check_limits(const ImportLimits& limits, const std::string& file);

// import_model() with the reading in a child under `limits`: writes the scene, its side files
// and the report, and returns the report. ImportError for bad input, a limit or a crash of the
// reader (nothing written); std::logic_error for an internal error of the import.
nlohmann::json import_model_walled(const ImportOptions& opt, const ImportLimits& limits);

}  // namespace vpsim::import

// Scratch files for unit tests. ctest runs each Catch2 case as its own process, several at once,
// so a fixed name under /tmp is shared by concurrent cases: one removes or rewrites the file while
// another reads it. A TempFile's name carries the process id and a per-process counter, and the
// file is removed when the TempFile goes out of scope, also when the test throws.
#pragma once

#include <atomic>
#include <filesystem>
#include <string>
#include <system_error>

#include <unistd.h>

class TempFile {
public:
    // A name under the temporary directory: STEM-PID-N.EXT; nothing is created.
    explicit TempFile(const std::string& stem, const std::string& ext = ".txt") {
        static std::atomic<unsigned> counter{0};
        path_ = (std::filesystem::temp_directory_path() /
                 (stem + "-" + std::to_string(::getpid()) + "-" + std::to_string(counter++) + ext))
                    .string();
    }
    ~TempFile() {
        std::error_code ec;
        std::filesystem::remove(path_, ec);
    }
    TempFile(const TempFile&) = delete;
    TempFile& operator=(const TempFile&) = delete;

    const std::string& path() const { return path_; }

private:
    std::string path_;
};

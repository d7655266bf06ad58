// Output files appear complete or not at all: written to a temporary file in the same
// directory, then renamed over the target.
#pragma once

#include <cstdio>
#include <stdexcept>
#include <string>

namespace vpsim {

struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws OutputError("PATH: cannot write: <reason>") and leaves no partial file behind.
void write_file_atomic(const std::string& path, const std::string& content);

// A large output written as it is produced (a trace, a vertex dump): the bytes go to a
// temporary file that commit() renames over `path`; destroyed without commit(), the temporary
// is removed, so a failed run leaves no partial file.
class AtomicOutput {
public:
    explicit AtomicOutput(std::string path);  // throws OutputError
    ~AtomicOutput();
    AtomicOutput(const AtomicOutput&) = delete;
    AtomicOutput& operator=(const AtomicOutput&) = delete;

    std::FILE* file() const { return f_; }
    void write(const std::string& s);
    void commit();  // throws OutputError (then nothing is left behind)
    const std::string& path() const { return path_; }

private:
    std::string path_, tmp_;
    std::FILE* f_ = nullptr;
    bool failed_ = false;
};

}  // namespace vpsim

// Output files appear complete or not at all: written to a temporary file in the same
// directory, then renamed over the target.
#pragma once

#include <stdexcept>
#include <string>

namespace vpsim {

struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws OutputError("PATH: cannot write: <reason>") and leaves no partial file behind.
void write_file_atomic(const std::string& path, const std::string& content);

}  // namespace vpsim

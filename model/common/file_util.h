// Output files appear complete or not at all: written to a temporary file in the same
// directory, then renamed over the target.
#pragma once

#include <cstdint>
#include <cstdio>
#include <functional>
#include <stdexcept>
#include <string>

namespace vpsim {

struct OutputError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The largest input file vpsim reads (scene, buffer, shader, declaration, config, study):
// checked from the file's size before any byte is read.
constexpr uint64_t kMaxInputFileBytes = uint64_t(1) << 30;  // 1 GiB

// Reads a whole input file ("-": standard input). Only regular files (a FIFO, a device such
// as /dev/zero or a directory is refused before reading) of at most kMaxInputFileBytes.
// Returns false with `why` ("not a regular file (a directory)", "cannot open: ...", "size ...
// is more than the limit ...") on failure; the caller names the file in its own error type.
bool read_input_file(const std::string& path, std::string& data, std::string& why);

// An input file that cannot be read: what() is "NAME: why", NAME the path ("<stdin>" for "-").
struct InputFileError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// read_input_file() for callers that name the file as it is: the whole file, or InputFileError.
std::string read_file(const std::string& path);

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
    int slot_ = -1;  // in the signal handler's list of temporaries
};

// An output directory held by one writer: an exclusive flock() on the directory itself for the
// life of the object (the kernel releases it when the process ends, however it ends; nothing
// is left in the directory). A second writer gets OutputError before it writes anything.
class OutputDirLock {
public:
    explicit OutputDirLock(const std::string& dir);  // throws OutputError
    ~OutputDirLock();
    OutputDirLock(const OutputDirLock&) = delete;
    OutputDirLock& operator=(const OutputDirLock&) = delete;

private:
    int fd_ = -1;
};

// Waits while another process holds `dir`'s OutputDirLock (a `vpsim run` still writing it), then
// returns at once without holding it: true when it had to wait (`waiting` was called first,
// once), false when the directory was free or does not exist. Throws OutputError when the
// directory cannot be opened or locked for another reason.
bool wait_for_dir_lock(const std::string& dir, const std::function<void()>& waiting);

// SIGINT and SIGTERM: remove every temporary file an AtomicOutput or write_file_atomic has
// open, then exit 128 + the signal (130, 143). Installed once by main().
void install_cleanup_on_signals();

// Out of memory anywhere (operator new fails, whichever command and whatever would have caught
// the std::bad_alloc): the internal error docs/limits.md gives, "`me`: internal error: out of
// memory ..." on stderr, the temporary files removed as on a signal, exit 3. A std::new_handler;
// installed once by main(). `me` must live as long as the process (a string literal).
void install_out_of_memory_exit(const char* me);

}  // namespace vpsim

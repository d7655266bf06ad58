// Child processes: one place that forks, execs, connects the standard streams, waits, times out
// and reports how a process ended (exit status or signal, wall time, CPU time, peak resident
// memory from wait4's rusage). vpsim sweep's backends, vpsim plot / report (the plot script),
// bench run's memory children and the tools the RTL checks run (verilator, make, yosys,
// verilator_coverage, genhtml, yosys-smtbmc and the mutation campaign's child cross-checks,
// through run_command() below: run() with stdout and stderr as one captured text) use it.
// vpsim import runs its model reading in a forked child through run_function() (no exec).
// Nothing else in model/ or tb/ forks, execs, or calls popen or system().
//
// A program that cannot be started (not found, not executable, a bad working directory) is a
// ProcessError thrown by spawn() / run() in the parent ("cannot run NAME: No such file or
// directory"), reported through a close-on-exec pipe, never a child that exits 127.
#pragma once

#include <sys/resource.h>
#include <sys/types.h>

#include <csignal>
#include <cstdint>
#include <functional>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim {

struct ProcessError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Where a child's standard stream goes.
enum class Stream {
    Inherit,  // this process's stream
    Null,     // /dev/null
    File,     // a file (created or truncated, mode 0644): SpawnOptions::out_file / err_file
    Capture,  // into RunResult::out / err (run() only)
    ToStdout, // stderr only: wherever stdout goes (2>&1)
};

struct SpawnOptions {
    std::string program;          // the file to execute; empty: argv[0] (a name without '/' is looked up on PATH)
    bool stdin_null = true;       // stdin from /dev/null (false: this process's stdin)
    Stream out = Stream::Inherit, err = Stream::Inherit;
    std::string out_file, err_file;
    std::string cwd;              // empty: this process's working directory
    bool own_process_group = false;  // the child leads a new process group: kill() and a timeout end all it started
    // Not 0: the child gets this signal when this process ends, however it ends (SIGKILL too), so
    // it does not run on as an orphan (Linux PR_SET_PDEATHSIG, kept across exec; it fires when the
    // thread that called spawn() ends, so spawn such children from a thread that lives as long as
    // the process, e.g. the main thread). A child whose parent is already gone at its start gets
    // the signal at once.
    int parent_death_signal = 0;
};

// How a process ended, and what it used.
struct ExitStatus {
    bool exited = false;  // it called exit (else it was ended by `signal`)
    int code = 0;         // its exit status, when exited
    int signal = 0;       // the signal that ended it, when not exited
    bool timed_out = false;  // run(): ended by vpsim at its timeout
    double wall_seconds = 0, user_seconds = 0, system_seconds = 0;
    uint64_t max_rss_bytes = 0;  // peak resident memory (ru_maxrss)

    bool ok() const { return exited && code == 0 && !timed_out; }
    // The shell's number for it: the exit status, or 128 + the signal.
    int shell_code() const { return exited ? code : 128 + signal; }
    // "exit status 3", "killed by signal 9 (Killed)", "timed out after 2 s (killed)".
    std::string describe() const;
};

struct RunOptions;
struct RunResult;
namespace detail {
RunResult run_impl(const std::vector<std::string>& argv, const RunOptions& o, const std::function<int()>* body);
}

// A started child. Reap it with wait(), try_wait() or wait_any(); a Child destroyed while its
// process still runs leaves that process alone.
class Child {
public:
    Child() = default;
    Child(Child&& o) noexcept;
    Child& operator=(Child&& o) noexcept;
    Child(const Child&) = delete;
    Child& operator=(const Child&) = delete;

    pid_t pid() const { return pid_; }
    bool running() const { return pid_ > 0 && !status_; }
    // The status once reaped.
    const std::optional<ExitStatus>& status() const { return status_; }
    // Reaps it if it has ended; nullopt while it runs.
    std::optional<ExitStatus> try_wait();
    // Blocks until it ends. interruptible: returns nullopt when a signal handler interrupts the
    // wait (EINTR; a handler installed without SA_RESTART), so the caller can look at its flag.
    std::optional<ExitStatus> wait(bool interruptible = false);
    // Sends `sig` to the child (to its process group when it leads one). No-op once reaped.
    void kill(int sig = SIGTERM) const;

private:
    friend Child spawn(const std::vector<std::string>&, const SpawnOptions&);
    friend Child* wait_any(const std::vector<Child*>&, bool);
    friend RunResult detail::run_impl(const std::vector<std::string>&, const RunOptions&, const std::function<int()>*);
    Child(pid_t pid, bool group, double started) : pid_(pid), group_(group), started_(started) {}
    void reaped(int wait_status, const rusage& ru);

    pid_t pid_ = -1;
    bool group_ = false;
    double started_ = 0;  // steady clock, seconds
    std::optional<ExitStatus> status_;
};

// Starts argv (argv[0] the program unless o.program is set). Stream::Capture is refused here
// (nothing would read the pipe): use run(). Throws ProcessError.
Child spawn(const std::vector<std::string>& argv, const SpawnOptions& o = {});

// Blocks until one of `children` (running ones) ends and returns it, reaped; children of this
// process that are not in the list are reaped and ignored. nullptr when `interruptible` and a
// signal handler interrupted the wait, or when none of them is running.
Child* wait_any(const std::vector<Child*>& children, bool interruptible = false);

struct RunOptions : SpawnOptions {
    double timeout_seconds = 0;  // 0: none. At the timeout the child (its group if it leads one) gets SIGKILL.
};

struct RunResult : ExitStatus {
    std::string out, err;  // the captured streams (Stream::Capture)
};

// Runs argv to its end, reading captured streams as they are written (a child that fills both
// pipes does not block). Throws ProcessError when it cannot be started.
RunResult run(const std::vector<std::string>& argv, const RunOptions& o = {});

// Runs `body` in a forked child instead of a program (fork without exec) with run()'s streams
// and timeout: the child's exit status is body's return value (125 when an exception escapes
// it). For work that may crash, hang or exhaust memory and must not take this process with it
// (vpsim import's model reading, model/import/walled_import.h): the child has a copy of this
// process's memory and only the calling thread, so call it where no other thread holds a lock
// the body needs. argv-less: SpawnOptions::program is unused.
RunResult run_function(const std::function<int()>& body, const RunOptions& o = {});

// The path `name` resolves to on PATH, as execvp would find it ("" when none); a name with a
// '/' is returned when that file is executable.
std::string find_program(const std::string& name);

// Runs argv (PATH lookup) in `cwd` ("" = here) with run(), stdout and stderr captured together into
// `output` (a tool that cannot be started: the reason); returns the exit status, 127 when it could
// not be started, 128 + N after signal N, -1 when it ran longer than timeout_seconds (> 0) and was
// killed with everything it started (its process group).
int run_command(const std::vector<std::string>& argv, const std::string& cwd, std::string& output,
                double timeout_seconds = 0);

}  // namespace vpsim

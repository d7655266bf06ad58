#include "model/common/process.h"

#include <fmt/format.h>

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

namespace vpsim {

namespace {

double now_seconds() {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

// What the child reports through the close-on-exec pipe when it cannot become the program.
struct ExecFailure {
    int stage;  // 0 open a stream file, 1 chdir, 2 exec
    int err;
};

void close_fd(int& fd) {
    if (fd >= 0) ::close(fd);
    fd = -1;
}

// Everything the child needs, prepared before fork (the child calls only async-signal-safe
// functions, plus execvp).
struct Prepared {
    std::vector<std::string> args;
    std::vector<char*> argv;
    std::string program;
};

}  // namespace

std::string ExitStatus::describe() const {
    if (timed_out) return fmt::format("timed out after {:.3g} s (killed)", wall_seconds);
    if (exited) return fmt::format("exit status {}", code);
    const char* name = ::strsignal(signal);
    return fmt::format("killed by signal {} ({})", signal, name ? name : "?");
}

Child::Child(Child&& o) noexcept { *this = std::move(o); }

Child& Child::operator=(Child&& o) noexcept {
    pid_ = o.pid_;
    group_ = o.group_;
    started_ = o.started_;
    status_ = std::move(o.status_);
    o.pid_ = -1;
    o.status_.reset();
    return *this;
}

void Child::reaped(int st, const rusage& ru) {
    ExitStatus s;
    s.exited = WIFEXITED(st);
    s.code = s.exited ? WEXITSTATUS(st) : 0;
    s.signal = WIFSIGNALED(st) ? WTERMSIG(st) : 0;
    s.wall_seconds = now_seconds() - started_;
    s.user_seconds = double(ru.ru_utime.tv_sec) + double(ru.ru_utime.tv_usec) * 1e-6;
    s.system_seconds = double(ru.ru_stime.tv_sec) + double(ru.ru_stime.tv_usec) * 1e-6;
    s.max_rss_bytes = uint64_t(ru.ru_maxrss) * 1024;  // kilobytes on Linux
    status_ = s;
}

std::optional<ExitStatus> Child::try_wait() {
    if (status_ || pid_ <= 0) return status_;
    int st = 0;
    rusage ru{};
    pid_t r;
    do r = ::wait4(pid_, &st, WNOHANG, &ru);
    while (r < 0 && errno == EINTR);
    if (r < 0) throw ProcessError(fmt::format("wait4 {}: {}", pid_, std::strerror(errno)));
    if (r == pid_) reaped(st, ru);
    return status_;
}

std::optional<ExitStatus> Child::wait(bool interruptible) {
    if (status_ || pid_ <= 0) return status_;
    int st = 0;
    rusage ru{};
    for (;;) {
        const pid_t r = ::wait4(pid_, &st, 0, &ru);
        if (r == pid_) break;
        if (r < 0 && errno == EINTR) {
            if (interruptible) return std::nullopt;
            continue;
        }
        throw ProcessError(fmt::format("wait4 {}: {}", pid_, std::strerror(errno)));
    }
    reaped(st, ru);
    return status_;
}

void Child::kill(int sig) const {
    if (pid_ <= 0 || status_) return;
    ::kill(group_ ? -pid_ : pid_, sig);
}

Child* wait_any(const std::vector<Child*>& children, bool interruptible) {
    bool any = false;
    for (const Child* c : children) any = any || (c && c->running());
    if (!any) return nullptr;
    for (;;) {
        int st = 0;
        rusage ru{};
        const pid_t r = ::wait4(-1, &st, 0, &ru);
        if (r < 0) {
            if (errno == EINTR) {
                if (interruptible) return nullptr;
                continue;
            }
            throw ProcessError(std::string("wait4: ") + std::strerror(errno));
        }
        for (Child* c : children)
            if (c && c->running() && c->pid_ == r) {
                c->reaped(st, ru);
                return c;
            }
    }
}

namespace {

// Forks and execs (or, with `body`, forks and runs it); returns the pid. `cap_out` / `cap_err`:
// the write ends of capture pipes (or -1).
pid_t start(const std::vector<std::string>& argv, const SpawnOptions& o, int cap_out, int cap_err,
            const std::function<int()>* body = nullptr) {
    if (argv.empty()) throw ProcessError("spawn: an empty command");
    if (o.out == Stream::ToStdout) throw ProcessError("spawn: stdout cannot go to stdout");
    Prepared p;
    p.args = argv;
    for (auto& a : p.args) p.argv.push_back(a.data());
    p.argv.push_back(nullptr);
    p.program = o.program.empty() ? argv[0] : o.program;
    const bool path_search = p.program.find('/') == std::string::npos;
    if ((o.out == Stream::File && o.out_file.empty()) || (o.err == Stream::File && o.err_file.empty()))
        throw ProcessError("spawn " + p.program + ": Stream::File without a file name");

    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) throw ProcessError(std::string("pipe: ") + std::strerror(errno));
    std::fflush(nullptr);  // text this process buffered comes before the child's
    const pid_t parent = ::getpid();
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int e = errno;
        ::close(report[0]);
        ::close(report[1]);
        throw ProcessError(std::string("fork: ") + std::strerror(e));
    }
    if (pid == 0) {
        int stage = 0;
        auto connect = [&](Stream s, const std::string& file, int cap, int target) {
            int fd = -1;
            switch (s) {
                case Stream::Inherit: return true;
                case Stream::Null: fd = ::open("/dev/null", O_WRONLY); break;
                case Stream::File: fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644); break;
                case Stream::Capture: return ::dup2(cap, target) >= 0;
                case Stream::ToStdout: return ::dup2(1, target) >= 0;
            }
            if (fd < 0) return false;
            ::dup2(fd, target);
            ::close(fd);
            return true;
        };
        bool ok = true;
        if (o.parent_death_signal) {
            ::prctl(PR_SET_PDEATHSIG, o.parent_death_signal);
            if (::getppid() != parent) ::kill(::getpid(), o.parent_death_signal);  // it ended before the prctl
        }
        if (o.own_process_group) ::setpgid(0, 0);
        if (o.stdin_null) {
            const int fn = ::open("/dev/null", O_RDONLY);
            ok = fn >= 0 && ::dup2(fn, 0) >= 0;
            if (fn >= 0) ::close(fn);
        }
        ok = ok && connect(o.out, o.out_file, cap_out, 1);
        ok = ok && connect(o.err, o.err_file, cap_err, 2);
        if (ok) {
            stage = 1;
            ok = o.cwd.empty() || ::chdir(o.cwd.c_str()) == 0;
        }
        if (ok && body) {
            ::close(report[1]);  // the parent's read sees the end: the child runs
            int rc = 125;
            try {
                rc = (*body)();
            } catch (...) {
            }
            ::_exit(rc);
        }
        if (ok) {
            stage = 2;
            if (path_search)
                ::execvp(p.program.c_str(), p.argv.data());
            else
                ::execv(p.program.c_str(), p.argv.data());
        }
        const ExecFailure f{stage, errno};
        if (::write(report[1], &f, sizeof f) < 0) {
        }
        ::_exit(127);
    }
    ::close(report[1]);
    if (o.own_process_group) ::setpgid(pid, pid);  // also here: no race with an early kill()
    ExecFailure f{};
    ssize_t n;
    do n = ::read(report[0], &f, sizeof f);
    while (n < 0 && errno == EINTR);
    ::close(report[0]);
    if (n == ssize_t(sizeof f)) {  // the child could not become the program: reap it, say why
        int st = 0;
        while (::waitpid(pid, &st, 0) < 0 && errno == EINTR) {
        }
        if (f.stage == 0)
            throw ProcessError(fmt::format("cannot run {}: cannot open its standard streams ({}{}{}): {}", p.program,
                                           o.out == Stream::File ? o.out_file : "",
                                           o.out == Stream::File && o.err == Stream::File ? ", " : "",
                                           o.err == Stream::File ? o.err_file : "", std::strerror(f.err)));
        if (f.stage == 1)
            throw ProcessError(
                fmt::format("cannot run {}: cannot enter the directory {}: {}", p.program, o.cwd, std::strerror(f.err)));
        throw ProcessError(fmt::format("cannot run {}: {}", p.program, std::strerror(f.err)));
    }
    return pid;
}

}  // namespace

Child spawn(const std::vector<std::string>& argv, const SpawnOptions& o) {
    if (o.out == Stream::Capture || o.err == Stream::Capture)
        throw ProcessError("spawn: Stream::Capture needs run() (nothing would read the pipe)");
    const double t0 = now_seconds();
    const pid_t pid = start(argv, o, -1, -1);
    return Child(pid, o.own_process_group, t0);
}

namespace detail {

RunResult run_impl(const std::vector<std::string>& argv, const RunOptions& o, const std::function<int()>* body) {
    int out_pipe[2] = {-1, -1}, err_pipe[2] = {-1, -1};
    auto cleanup = [&] {
        for (int* p : {out_pipe, err_pipe}) close_fd(p[0]), close_fd(p[1]);
    };
    // Close-on-exec: the child dup2s the write ends onto 1 and 2 (which clears the flag there).
    if (o.out == Stream::Capture && ::pipe2(out_pipe, O_CLOEXEC) != 0)
        throw ProcessError(std::string("pipe: ") + std::strerror(errno));
    if (o.err == Stream::Capture && ::pipe2(err_pipe, O_CLOEXEC) != 0) {
        const int e = errno;
        cleanup();
        throw ProcessError(std::string("pipe: ") + std::strerror(e));
    }
    const double t0 = now_seconds();
    Child c;
    try {
        c = Child(start(argv, o, out_pipe[1], err_pipe[1], body), o.own_process_group, t0);
    } catch (...) {
        cleanup();
        throw;
    }
    close_fd(out_pipe[1]);
    close_fd(err_pipe[1]);
    RunResult r;
    bool timed_out = false;
    const double deadline = t0 + o.timeout_seconds;
    char buf[65536];
    while (out_pipe[0] >= 0 || err_pipe[0] >= 0) {
        int wait_ms = -1;
        if (o.timeout_seconds > 0) {
            const double left = deadline - now_seconds();
            if (left <= 0) {
                timed_out = true;
                break;
            }
            wait_ms = int(std::min(left * 1000.0 + 1.0, 1000.0));
        }
        pollfd fds[2];
        std::string* sinks[2];
        int* owners[2];
        nfds_t n = 0;
        for (auto [fd, sink] : {std::pair<int*, std::string*>{&out_pipe[0], &r.out}, {&err_pipe[0], &r.err}})
            if (*fd >= 0) {
                fds[n] = pollfd{*fd, POLLIN, 0};
                sinks[n] = sink;
                owners[n++] = fd;
            }
        const int pr = ::poll(fds, n, wait_ms);
        if (pr < 0) {
            if (errno == EINTR) continue;
            const int e = errno;
            c.kill(SIGKILL);
            c.wait();
            cleanup();
            throw ProcessError(std::string("poll: ") + std::strerror(e));
        }
        for (nfds_t i = 0; i < n; ++i) {
            if (!(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) continue;
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got < 0 && errno == EINTR) continue;
            if (got <= 0)
                close_fd(*owners[i]);
            else
                sinks[i]->append(buf, size_t(got));
        }
    }
    if (!timed_out && o.timeout_seconds > 0) {
        // The streams are closed (or were never captured): wait for the exit up to the deadline.
        while (!c.try_wait()) {
            if (now_seconds() >= deadline) {
                timed_out = true;
                break;
            }
            ::usleep(2000);
        }
    }
    if (timed_out) c.kill(SIGKILL);
    cleanup();
    const ExitStatus s = *c.wait();
    static_cast<ExitStatus&>(r) = s;
    r.timed_out = timed_out;
    return r;
}

}  // namespace detail

RunResult run(const std::vector<std::string>& argv, const RunOptions& o) { return detail::run_impl(argv, o, nullptr); }

RunResult run_function(const std::function<int()>& body, const RunOptions& o) {
    return detail::run_impl({"(function)"}, o, &body);
}

std::string find_program(const std::string& name) {
    auto executable = [](const std::string& f) {
        struct stat st {};
        return ::stat(f.c_str(), &st) == 0 && S_ISREG(st.st_mode) && ::access(f.c_str(), X_OK) == 0;
    };
    if (name.empty()) return "";
    if (name.find('/') != std::string::npos) return executable(name) ? name : "";
    const char* path = std::getenv("PATH");
    const std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t end = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = end > start ? dirs.substr(start, end - start) : ".";
        const std::string f = dir + "/" + name;
        if (executable(f)) return f;
        start = end + 1;
    }
    return "";
}

// Tools (verilator, make, yosys, verilator_coverage, genhtml): run() with one captured text.
int run_command(const std::vector<std::string>& argv, const std::string& cwd, std::string& output,
                double timeout_seconds) {
    RunOptions o;
    o.out = Stream::Capture;
    o.err = Stream::ToStdout;  // one text, in the order the tool wrote it
    o.cwd = cwd;
    o.timeout_seconds = timeout_seconds;
    o.own_process_group = timeout_seconds > 0;  // a timeout ends all it started (make's compilers, a child vpsim)
    try {
        const RunResult r = run(argv, o);
        output += r.out;
        if (r.timed_out) return -1;
        return r.shell_code();
    } catch (const ProcessError& e) {  // not found, not executable, no such directory
        output += e.what();
        return 127;
    }
}

}  // namespace vpsim

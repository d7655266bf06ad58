// model/common/process.h: the one process helper (spawn, capture, timeout, exit status, rusage).
#include "model/common/process.h"

#include <catch2/catch.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

using namespace vpsim;

namespace {

RunOptions capture_both() {
    RunOptions o;
    o.out = Stream::Capture;
    o.err = Stream::Capture;
    return o;
}

std::string temp_dir(const std::string& name) {
    const auto d = std::filesystem::temp_directory_path() / (name + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(d);
    std::filesystem::create_directories(d);
    return d.string();
}

std::string file_text(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
}

}  // namespace

TEST_CASE("process: a child past its timeout is killed and reported as timed out") {
    RunOptions o = capture_both();
    o.timeout_seconds = 0.3;
    const RunResult r = run({"sh", "-c", "echo started; sleep 20; echo never"}, o);
    CHECK(r.timed_out);
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.exited);
    CHECK(r.signal == SIGKILL);
    CHECK(r.out == "started\n");  // what it wrote before the timeout is kept
    CHECK(r.wall_seconds >= 0.3);
    CHECK(r.wall_seconds < 5);
    CHECK_THAT(r.describe(), Catch::Contains("timed out"));
}

TEST_CASE("process: a timeout ends the whole process group, even children that hold the pipes open") {
    RunOptions o = capture_both();
    o.timeout_seconds = 0.3;
    o.own_process_group = true;
    // The grandchild keeps stdout open: without the group kill, reading would wait 20 s for it.
    const RunResult r = run({"sh", "-c", "sleep 20 & sleep 20"}, o);
    CHECK(r.timed_out);
    CHECK(r.wall_seconds < 5);
}

TEST_CASE("process: a child that exits with a status or is killed by a signal says so") {
    const RunResult r = run({"sh", "-c", "echo partial; echo 'went wrong' >&2; exit 3"}, capture_both());
    CHECK(r.exited);
    CHECK(r.code == 3);
    CHECK_FALSE(r.ok());
    CHECK_FALSE(r.timed_out);
    CHECK(r.out == "partial\n");
    CHECK(r.err == "went wrong\n");
    CHECK(r.shell_code() == 3);
    CHECK(r.describe() == "exit status 3");

    const RunResult k = run({"sh", "-c", "kill -TERM $$"}, capture_both());
    CHECK_FALSE(k.exited);
    CHECK(k.signal == SIGTERM);
    CHECK(k.shell_code() == 128 + SIGTERM);
    CHECK_THAT(k.describe(), Catch::Contains("signal 15"));

    const RunResult ok = run({"true"});
    CHECK(ok.ok());
    CHECK(ok.describe() == "exit status 0");
}

TEST_CASE("process: a program that cannot be started is an error in the parent, not a child's exit 127") {
    CHECK_THROWS_WITH(run({"/nonexistent/vpsim-no-such-program"}),
                      Catch::Contains("cannot run /nonexistent/vpsim-no-such-program: No such file or directory"));
    CHECK_THROWS_WITH(spawn({"vpsim-no-such-program-on-path"}),
                      Catch::Contains("cannot run vpsim-no-such-program-on-path"));
    RunOptions o;
    o.cwd = "/nonexistent-dir-for-vpsim";
    CHECK_THROWS_WITH(run({"true"}, o), Catch::Contains("cannot enter the directory /nonexistent-dir-for-vpsim"));
    SpawnOptions f;
    f.err = Stream::File;
    f.err_file = "/nonexistent-dir-for-vpsim/err.txt";
    CHECK_THROWS_WITH(spawn({"true"}, f), Catch::Contains("/nonexistent-dir-for-vpsim/err.txt"));
    SpawnOptions c;
    c.out = Stream::Capture;
    CHECK_THROWS_AS(spawn({"true"}, c), ProcessError);
    CHECK_THROWS_AS(run({}), ProcessError);
}

TEST_CASE("process: a child writing megabytes to both streams at once does not block, every byte captured") {
    // Interleaved lines on both streams, then 2 MB more on stderr alone and 1 MB on stdout: far
    // more than a pipe holds (64 KiB), so a reader that drained one stream only would deadlock.
    const std::string script =
        "i=0; while [ $i -lt 2000 ]; do printf '%0499d\\n' $i; printf '%0499d\\n' $i >&2; i=$((i+1)); done; "
        "head -c 2000000 /dev/zero | tr '\\000' e >&2; head -c 1000000 /dev/zero | tr '\\000' o";
    RunOptions o = capture_both();
    o.timeout_seconds = 60;
    const RunResult r = run({"sh", "-c", script}, o);
    REQUIRE(r.ok());
    REQUIRE(r.out.size() == 2000 * 500 + 1000000);
    REQUIRE(r.err.size() == 2000 * 500 + 2000000);
    CHECK(r.out.substr(0, 500) == std::string(499, '0') + "\n");
    CHECK(r.out.substr(1999 * 500, 500) == std::string(495, '0') + "1999\n");
    CHECK(r.err.substr(1999 * 500, 500) == std::string(495, '0') + "1999\n");
    CHECK(r.out.find_first_not_of('o', 2000 * 500) == std::string::npos);
    CHECK(r.err.find_first_not_of('e', 2000 * 500) == std::string::npos);
}

TEST_CASE("process: stderr into stdout, streams to files and /dev/null") {
    RunOptions m;
    m.out = Stream::Capture;
    m.err = Stream::ToStdout;
    const RunResult r = run({"sh", "-c", "echo one; echo two >&2; echo three"}, m);
    CHECK(r.out == "one\ntwo\nthree\n");
    CHECK(r.err.empty());

    const std::string dir = temp_dir("vpsim-test-process");
    SpawnOptions f;
    f.out = Stream::File;
    f.out_file = dir + "/out.txt";
    f.err = Stream::Null;
    f.cwd = dir;
    Child c = spawn({"sh", "-c", "pwd; echo hidden >&2"}, f);
    const auto s = c.wait();
    REQUIRE(s);
    CHECK(s->ok());
    CHECK(file_text(dir + "/out.txt") == std::filesystem::canonical(dir).string() + "\n");
    std::filesystem::remove_all(dir);
}

TEST_CASE("process: wait_any returns each child as it ends and try_wait does not block") {
    Child slow = spawn({"sh", "-c", "sleep 0.4; exit 4"});
    Child fast = spawn({"sh", "-c", "exit 5"});
    CHECK_FALSE(slow.try_wait());
    Child* first = wait_any({&slow, &fast});
    REQUIRE(first == &fast);
    CHECK(fast.status()->code == 5);
    CHECK(slow.running());
    Child* second = wait_any({&slow, &fast});
    REQUIRE(second == &slow);
    CHECK(slow.status()->code == 4);
    CHECK(slow.status()->wall_seconds >= 0.35);
    CHECK(wait_any({&slow, &fast}) == nullptr);  // nothing left running

    Child k = spawn({"sleep", "20"});
    k.kill(SIGTERM);
    const auto ks = k.wait();
    REQUIRE(ks);
    CHECK(ks->signal == SIGTERM);
}

TEST_CASE("process: rusage reports the child's peak resident memory and CPU time") {
    // 64 MiB written (so resident), held, then released at exit.
    const RunResult r = run({"/usr/bin/python3", "-c", "b = b'x' * (64 << 20); s = sum(range(3000000))"});
    REQUIRE(r.ok());
    CHECK(r.max_rss_bytes >= uint64_t(64) << 20);
    CHECK(r.max_rss_bytes < uint64_t(1) << 30);
    CHECK(r.user_seconds + r.system_seconds > 0);
    CHECK(r.wall_seconds > 0);
}

TEST_CASE("process: find_program looks names up on PATH") {
    CHECK_FALSE(find_program("sh").empty());
    CHECK(find_program("vpsim-no-such-program-on-path").empty());
    CHECK(find_program("/bin/sh") == "/bin/sh");
    CHECK(find_program("/nonexistent/sh").empty());
}

namespace {

// How the grandchild `sleep 30` ends that an intermediate process spawns (with
// `parent_death_signal`) and then leaves by _exit, as a SIGKILL would leave it: this process is a
// subreaper, so the orphan becomes its child and is reaped here. The signal that ended it, or
// nullopt when it still runs after `wait_ms` (it is killed then).
std::optional<int> orphan_end_signal(int parent_death_signal, int wait_ms) {
    REQUIRE(::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0);
    int fds[2];
    REQUIRE(::pipe(fds) == 0);
    const pid_t mid = ::fork();
    REQUIRE(mid >= 0);
    if (mid == 0) {
        ::close(fds[0]);
        SpawnOptions o;
        o.parent_death_signal = parent_death_signal;
        Child c = spawn({"/bin/sleep", "30"}, o);
        const pid_t p = c.pid();
        if (::write(fds[1], &p, sizeof p) != ssize_t(sizeof p)) ::_exit(1);
        ::_exit(0);  // no destructor, no clean-up
    }
    ::close(fds[1]);
    pid_t orphan = -1;
    const bool got = ::read(fds[0], &orphan, sizeof orphan) == ssize_t(sizeof orphan);
    ::close(fds[0]);
    int st = 0;
    ::waitpid(mid, &st, 0);
    REQUIRE(got);
    std::optional<int> sig;
    for (int waited = 0; waited <= wait_ms; waited += 10) {
        if (::waitpid(orphan, &st, WNOHANG) == orphan) {
            sig = WIFSIGNALED(st) ? WTERMSIG(st) : -1;
            break;
        }
        ::usleep(10000);
    }
    if (!sig) {
        ::kill(orphan, SIGKILL);
        ::waitpid(orphan, &st, 0);
    }
    ::prctl(PR_SET_CHILD_SUBREAPER, 0);
    return sig;
}

}  // namespace

TEST_CASE("process: parent_death_signal ends a child when its parent process ends") {
    const std::optional<int> sig = orphan_end_signal(SIGTERM, 5000);
    REQUIRE(sig);
    CHECK(*sig == SIGTERM);
}

TEST_CASE("process: without parent_death_signal a child outlives its parent (the control)") {
    CHECK_FALSE(orphan_end_signal(0, 500));
}

#include "model/study/backend.h"

#include "model/common/file_util.h"
#include "model/common/process.h"

#include <chrono>
#include <csignal>
#include <thread>

namespace vpsim::study {

namespace {

volatile std::sig_atomic_t g_signal = 0;
extern "C" void on_signal(int sig) { g_signal = sig; }

}  // namespace

bool interrupted() { return g_signal != 0; }

void install_interrupt_handlers() {
    struct sigaction sa {};
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = 0;  // no SA_RESTART: a wait returns EINTR
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

int interrupt_signal() { return g_signal; }

std::string write_points_file(const std::string& path, const std::vector<const Point*>& jobs) {
    std::string lines;
    for (const Point* p : jobs) lines += point_shell_command(*p) + "\n";
    write_file_atomic(path, lines);
    return path;
}

bool run_points_tool(const std::vector<std::string>& args, const std::string& err, const std::vector<const Point*>& jobs,
                     const std::function<void(const Point&, bool)>& done, const std::function<void(Child&)>& stop,
                     const std::function<void(int)>& exited, int parent_death_signal) {
    SpawnOptions o;
    o.parent_death_signal = parent_death_signal;
    o.out = Stream::Null;
    o.err = Stream::File;
    o.err_file = err;
    Child tool = spawn(args, o);
    std::vector<bool> reported(jobs.size(), false);
    auto poll = [&] {
        for (size_t i = 0; i < jobs.size(); ++i)
            if (!reported[i]) {
                const PointState s = point_state(*jobs[i]);
                if (s == PointState::Missing) continue;
                reported[i] = true;
                done(*jobs[i], s == PointState::Done);
            }
    };
    bool stopping = false;
    for (;;) {
        if (const auto st = tool.try_wait()) {
            if (!stopping && st->exited) exited(st->code);
            break;
        }
        if (interrupted() && !stopping) {
            stopping = true;
            stop(tool);
        }
        poll();
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
    }
    if (stopping) return false;
    poll();
    return true;
}

}  // namespace vpsim::study

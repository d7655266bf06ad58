// The local backend: a pool of `jobs` point processes on this machine.
#include "model/study/backend.h"

#include "model/common/file_util.h"
#include "model/common/process.h"

#include <algorithm>
#include <list>

namespace vpsim::study {

namespace {

class LocalBackend : public Backend {
public:
    explicit LocalBackend(unsigned jobs) : jobs_(std::max(1u, jobs)) {}
    std::string name() const override { return "local"; }
    bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) override {
        struct Running {
            Child child;
            const Point* point;
        };
        std::list<Running> running;
        size_t next = 0;
        while (next < jobs.size() || !running.empty()) {
            if (interrupted()) {
                for (auto& r : running) r.child.kill(SIGTERM);
                for (auto& r : running) r.child.wait();
                return false;
            }
            while (next < jobs.size() && running.size() < jobs_) {
                const Point* p = jobs[next++];
                try {
                    running.push_back({start(*p), p});
                } catch (const ProcessError& e) {
                    // It could not start (e.g. a --launcher that is not installed): a failed point
                    // that says why, as a shell would (exit 127).
                    write_file_atomic(p->dir + "/stderr.txt", std::string("vpsim sweep: ") + e.what() + "\n");
                    write_file_atomic(p->dir + "/exit_status", "127\n");
                    done(*p, false);
                }
            }
            std::vector<Child*> children;
            for (auto& r : running) children.push_back(&r.child);
            Child* ended = wait_any(children, /*interruptible*/ true);
            if (!ended) continue;  // a signal: the loop's head looks at it
            auto it = std::find_if(running.begin(), running.end(), [&](const Running& r) { return &r.child == ended; });
            const Point* p = it->point;
            const ExitStatus st = *ended->status();
            running.erase(it);
            if (interrupted() && !st.exited) continue;  // stopped by the interrupt: still missing
            write_file_atomic(p->dir + "/exit_status", std::to_string(st.shell_code()) + "\n");
            done(*p, point_state(*p) == PointState::Done);
        }
        return true;
    }

private:
    // stdin and stdout on /dev/null, stderr into the point's stderr.txt. A point gets SIGTERM when
    // the sweep ends, however it ends (a SIGKILL too): no point runs on as an orphan that a resumed
    // sweep would meet (vpsim run removes its temporaries on SIGTERM and exits 143).
    static Child start(const Point& p) {
        SpawnOptions o;
        o.parent_death_signal = SIGTERM;
        o.out = Stream::Null;
        o.err = Stream::File;
        o.err_file = p.dir + "/stderr.txt";
        return spawn(p.argv, o);
    }
    unsigned jobs_;
};

}  // namespace

std::unique_ptr<Backend> make_local_backend(unsigned jobs) { return std::make_unique<LocalBackend>(jobs); }

}  // namespace vpsim::study

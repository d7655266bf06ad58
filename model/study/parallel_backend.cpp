// The GNU parallel backend: the points file run by `parallel --jobs N`.
#include "model/study/backend.h"

#include "model/common/process.h"

#include <algorithm>

namespace vpsim::study {

namespace {

class ParallelBackend : public Backend {
public:
    ParallelBackend(unsigned jobs, std::string out) : jobs_(std::max(1u, jobs)), out_(std::move(out)) {}
    std::string name() const override { return "parallel"; }
    void check() const override {
        std::string text;
        try {
            RunOptions o;
            o.out = Stream::Capture;
            o.err = Stream::Null;
            text = vpsim::run({"parallel", "--version"}, o).out;
        } catch (const ProcessError&) {
            // not installed: said below
        }
        if (text.find("GNU parallel") == std::string::npos)
            throw StudyError("--backend parallel: GNU parallel is not installed (`parallel --version` does not say GNU "
                             "parallel); install the Debian package parallel (scripts/deps.sh parallel)");
    }
    bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) override {
        const std::string jobs_file = write_points_file(out_ + "/parallel.jobs", jobs);
        const std::string err = out_ + "/parallel.stderr";
        return run_points_tool(
            {"parallel", "--will-cite", "--halt", "never", "--jobs", std::to_string(jobs_), "--joblog",
             out_ + "/parallel.joblog", "::::", jobs_file},
            err, jobs, done,
            [](Child& tool) {
                tool.kill(SIGTERM);  // GNU parallel: no new jobs
                tool.kill(SIGTERM);  // a second TERM ends the running ones
            },
            [&](int status) {
                if (status == 255) throw std::runtime_error("GNU parallel failed; its messages are in " + err);
            },
            // A sweep that ends (even by SIGKILL) takes its points with it: on SIGINT GNU parallel
            // kills its running jobs (each in its own process group) and exits.
            SIGINT);
    }

private:
    unsigned jobs_;
    std::string out_;
};

}  // namespace

std::unique_ptr<Backend> make_parallel_backend(unsigned jobs, std::string out_dir) {
    return std::make_unique<ParallelBackend>(jobs, std::move(out_dir));
}

}  // namespace vpsim::study

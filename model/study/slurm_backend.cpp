// Slurm: the points file goes to scripts/sweep-slurm.sh (installed with vpsim's data), which
// submits it as one job array and follows it; the points' directories say how each ended.
#include "model/study/slurm.h"

#include "model/common/file_util.h"
#include "model/common/printable.h"
#include "model/common/process.h"

#include <fmt/format.h>

#include <sstream>
#include <unistd.h>

namespace vpsim::study {

namespace {

class SlurmBackend : public Backend {
public:
    SlurmBackend(SlurmOptions o, std::string out, std::string script)
        : o_(std::move(o)), out_(std::move(out)), script_(std::move(script)) {}
    std::string name() const override { return "slurm"; }
    bool detached() const override { return o_.no_wait; }
    void check() const override {
        if (::access(script_.c_str(), R_OK) != 0)
            throw StudyError("--backend slurm: " + script_ + " is missing (vpsim's data is not installed)");
        if (find_program("sbatch").empty())
            throw StudyError("--backend slurm: Slurm is not installed: sbatch not found on PATH (Debian: slurm-client; "
                             "for a local test cluster see docs/slurm.md)");
        // A job submitted earlier into this directory (--no-wait) that is still queued would write
        // the same points: nothing is touched until it has ended.
        const std::string job = slurm_job_id(out_);
        std::vector<std::string> queued;
        try {
            queued = slurm_queued_states(job);
        } catch (const StudyError&) {
            // squeue not answering: sweep-slurm.sh says so plainly when it runs
        }
        if (!queued.empty())
            throw StudyError(fmt::format("--backend slurm: job {}, submitted earlier into {}, still has {} array task(s) "
                                         "queued or running: wait for it and run `vpsim sweep collect {}`, or scancel {}",
                                         job, out_, queued.size(), out_, job));
    }
    bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) override {
        if (jobs.empty()) return true;  // every point is done: nothing to submit
        const std::string jobs_file = write_points_file(out_ + "/slurm.jobs", jobs);
        const std::string err = out_ + "/slurm.stderr";
        std::vector<std::string> args = {"bash", script_, jobs_file, out_};
        auto opt = [&](const char* flag, unsigned v) {
            if (v) args.insert(args.end(), {flag, std::to_string(v)});
        };
        if (!o_.partition.empty()) args.insert(args.end(), {"--partition", o_.partition});
        opt("--time", o_.time_minutes);
        opt("--mem", o_.mem_mb);
        opt("--chunk", o_.chunk);
        opt("--max-running", o_.max_running);
        if (o_.no_wait) args.push_back("--no-wait");
        return run_points_tool(
            args, err, jobs, done,
            [&](Child& tool) {
                tool.kill(SIGTERM);
                std::string job, why;
                (void)read_input_file(out_ + "/slurm/job_id", job, why);
                while (!job.empty() && (job.back() == '\n' || job.back() == '\r' || job.back() == ' ')) job.pop_back();
                if (!job.empty() && job.find_first_not_of("0123456789_") == std::string::npos) try {
                        RunOptions o;
                        o.out = o.err = Stream::Null;
                        (void)vpsim::run({"scancel", job}, o);
                    } catch (const ProcessError&) {
                        // no scancel: nothing more to stop from here
                    }
            },
            [&](int status) {
                // Exit 2: usage, or Slurm missing or unreachable; its message says which.
                if (status != 2) return;
                std::string m, why;
                (void)read_input_file(err, m, why);
                while (!m.empty() && m.back() == '\n') m.pop_back();
                throw std::runtime_error("--backend slurm: " + (m.empty() ? "sweep-slurm.sh failed" : m));
            },
            // The job array is the cluster's: it runs on without the sweep (--no-wait relies on it); a
            // second sweep refuses the directory while it has tasks in the queue.
            0);
    }

private:
    SlurmOptions o_;
    std::string out_, script_;
};

}  // namespace

std::unique_ptr<Backend> make_slurm_backend(SlurmOptions o, std::string out_dir, std::string script) {
    return std::make_unique<SlurmBackend>(std::move(o), std::move(out_dir), std::move(script));
}

std::string slurm_job_id(const std::string& out_dir) {
    std::string job, why;
    if (!read_input_file(out_dir + "/slurm/job_id", job, why)) return "";
    while (!job.empty() && (job.back() == '\n' || job.back() == '\r')) job.pop_back();
    if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) return "";
    return job;
}

std::vector<std::string> slurm_queued_states(const std::string& job) {
    if (job.empty() || job.find_first_not_of("0123456789") != std::string::npos) return {};
    RunResult r;
    try {
        RunOptions o;
        o.out = Stream::Capture;
        o.err = Stream::ToStdout;
        r = vpsim::run({"squeue", "-h", "-j", job, "-o", "%T"}, o);
    } catch (const ProcessError& e) {
        throw StudyError(fmt::format("squeue -j {} failed: {}", job, e.what()));
    }
    std::string text = r.out;
    if (!r.ok()) {
        if (text.find("Invalid job id") != std::string::npos) return {};  // the controller forgot it: it ended
        while (!text.empty() && text.back() == '\n') text.pop_back();
        throw StudyError(fmt::format("squeue -j {} failed: {}", job, printable(text.empty() ? "(no message)" : text)));
    }
    std::vector<std::string> states;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);)
        if (!line.empty()) states.push_back(line);
    return states;
}

}  // namespace vpsim::study

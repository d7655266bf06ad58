// Ways to run a study's points: a local pool of processes (local_backend.cpp), GNU parallel
// (parallel_backend.cpp) and a Slurm job array (slurm.h). Every backend leaves each point's
// directory as points.h says, so the results are the same whichever backend ran the points.
#pragma once

#include "model/study/points.h"

#include <sys/types.h>

#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace vpsim {
class Child;
}

namespace vpsim::study {

// A way to run point commands. run() starts every job, returns when all have ended (or the
// sweep was interrupted), and leaves each point's directory as the layout says: stats.json on
// success; exit_status and stderr.txt always.
class Backend {
public:
    virtual ~Backend() = default;
    virtual std::string name() const = 0;
    // Checked before any point runs (e.g. the tool it needs is installed); throws StudyError.
    virtual void check() const {}
    // True when run() only submits the points (Slurm --no-wait): they end later, elsewhere.
    virtual bool detached() const { return false; }
    // `done(point, ok)` after each point ends (progress). Returns false when interrupted.
    virtual bool run(const std::vector<const Point*>& jobs, const std::function<void(const Point&, bool)>& done) = 0;
};

std::unique_ptr<Backend> make_local_backend(unsigned jobs);
std::unique_ptr<Backend> make_parallel_backend(unsigned jobs, std::string out_dir);

// Signals: SIGINT/SIGTERM set this; backends stop their children and return.
bool interrupted();
int interrupt_signal();  // the signal received, 0 when none
void install_interrupt_handlers();

// For backends that hand a points file to a tool (GNU parallel, sweep-slurm.sh):
// the points' shell lines (point_shell_command), one a line, written atomically to `path`.
std::string write_points_file(const std::string& path, const std::vector<const Point*>& jobs);
// Runs `args` with stdin and stdout on /dev/null and stderr into the file `err`, reporting each
// point as its directory says it ended. On SIGINT/SIGTERM `stop(tool)` is called once and the
// run returns false. The tool's exit status is passed to `exited` (which may throw) when it
// ended on its own. `parent_death_signal`: the signal the tool gets when the sweep ends however it
// ends (SpawnOptions; 0: none).
bool run_points_tool(const std::vector<std::string>& args, const std::string& err, const std::vector<const Point*>& jobs,
                     const std::function<void(const Point&, bool)>& done, const std::function<void(Child&)>& stop,
                     const std::function<void(int)>& exited, int parent_death_signal);

}  // namespace vpsim::study

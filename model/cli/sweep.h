// vpsim sweep (docs/sweep.md): a study — scenes x parameter axes x repeats — run as one
// `vpsim run` per point, each in its own process, in a directory named by a hash of what
// determines its result; then one table of every point's summary and per-unit cycles.
//
// The study is resolved and checked completely (every scene loads, every axis key and value is
// a valid parameter) before any point runs. A Backend runs the points' commands; every backend
// leaves the same layout (DIR/points/<hash>/{config.json, stats.json, stderr.txt, exit_status}),
// and the results are read back from it, so they are the same whichever backend ran the points.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::cli::sweep {

// Bad study input (file, flag, axis, scene): the message names the file or flag and the rule.
struct StudyError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// One axis, or one group of zipped axes that vary together (all of the same length).
struct Axis {
    std::vector<std::string> keys;                  // "unit.param", one per zipped member
    std::vector<std::vector<std::string>> values;   // values[i][k]: the text of key k at step i
};

struct Study {
    std::string name;
    std::vector<std::string> scenes;  // resolved paths, in order
    std::string preset;
    std::vector<std::string> sets, profile, tess_profile;  // the base, before the axes
    std::vector<Axis> axes;
    unsigned repeats = 1;
    // The metrics to keep in results.csv / results.jsonl: glob patterns (fnmatch) over the
    // flattened column names ("cycles_per_vertex", "vertex_alu.*"); empty keeps every metric.
    // point, scene, repeat and the axes are always kept.
    std::vector<std::string> metrics;
};

// Reads a study file (schema "vpsim-study-1"); scene paths and globs are relative to its folder.
Study load_study(const std::string& path);
// "unit.param=v1,v2,v3" or "unit.param=FROM..TO" / "FROM..TO:STEP" (the --axis flag).
Axis parse_axis_flag(const std::string& text);
// Expands a scene argument: a file, a folder (its *.json, sorted) or a glob (sorted matches).
std::vector<std::string> expand_scenes(const std::string& arg, const std::string& origin);

struct Point {
    size_t index = 0;
    std::string scene;
    unsigned repeat = 0;
    std::vector<std::pair<std::string, std::string>> axis_values;  // (key, text) in axis order
    nlohmann::ordered_json axis_json = nlohmann::ordered_json::object();  // key -> the parameter's value as config.json has it
    std::string hash;                  // 16 hex digits
    std::string dir;                   // OUT/points/<hash>
    std::vector<std::string> argv;     // the `vpsim run` command, argv[0] the vpsim binary
};

// Every point of the study, checked (scenes load, axis keys and values are parameters);
// throws StudyError (an unknown key lists the valid ones) before anything runs.
std::vector<Point> resolve_points(const Study& s, const std::string& out_dir, const std::string& exe);
// The resolved study as study.json holds it.
nlohmann::ordered_json study_json(const Study& s, const std::vector<Point>& points);
// Reads OUT/study.json back (for `vpsim sweep collect`): the study's name, axes and metrics,
// and every point (hash, scene, repeat, axis values; dir = OUT/points/<hash>). No argv.
void load_resolved_study(const std::string& out_dir, Study& s, std::vector<Point>& points);
// Checks a --metric / "metrics" pattern (non-empty, printable); throws StudyError.
void check_metric_pattern(const std::string& pattern, const std::string& where);

// What ran a point left in its directory.
enum class PointState { Done, Failed, Missing };
PointState point_state(const Point& p, int* exit_status = nullptr, std::string* message = nullptr);

// A way to run point commands. run() starts every job, returns when all have ended (or the
// sweep was interrupted), and leaves each point's directory as the layout above says: stats.json
// on success; exit_status and stderr.txt always. A new backend (Slurm) implements this.
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
// Slurm (docs/slurm.md): the points as one job array through `script` (scripts/sweep-slurm.sh),
// on the cluster the Slurm client commands find (SLURM_CONF). Zero / empty: Slurm's defaults.
struct SlurmOptions {
    std::string partition;
    unsigned time_minutes = 0, mem_mb = 0, chunk = 0, max_running = 0;
    bool no_wait = false;  // submit and return; `vpsim sweep collect OUT` gathers the results
};
// The Slurm job id recorded in OUT/slurm/job_id, "" when none.
std::string slurm_job_id(const std::string& out_dir);
// The states ("PENDING", "RUNNING", ...) of the job's array tasks still in the queue; empty
// when the job has left it. Throws StudyError when squeue cannot be run or does not answer.
std::vector<std::string> slurm_queued_states(const std::string& job);
std::unique_ptr<Backend> make_slurm_backend(SlurmOptions o, std::string out_dir, std::string script);

// The shell line that runs one point and records its exit status (backends that run points
// through a shell: GNU parallel, Slurm job scripts).
std::string point_shell_command(const Point& p);

// results.csv and results.jsonl from every point's stats.json, written atomically; only the
// columns s.metrics keeps (a pattern that matches no column is a StudyError listing them).
void write_results(const std::string& out_dir, const Study& s, const std::vector<Point>& points);

// Signals: SIGINT/SIGTERM set this; backends stop their children and return.
bool interrupted();
int interrupt_signal();  // the signal received, 0 when none
void install_interrupt_handlers();

}  // namespace vpsim::cli::sweep

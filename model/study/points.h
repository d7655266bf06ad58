// A study's points: one `vpsim run` each, in a directory named by a hash of what determines its
// result (point_hash.h). Every backend leaves the same layout (DIR/points/<hash>/{config.json,
// stats.json, stderr.txt, exit_status}), so a point's state is read from its directory.
#pragma once

#include "model/study/study.h"

#include <nlohmann/json.hpp>

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::study {

struct Point {
    size_t index = 0;
    std::string scene;
    unsigned repeat = 0;
    std::vector<std::pair<std::string, std::string>> axis_values;  // (key, text) in axis order
    nlohmann::ordered_json axis_json = nlohmann::ordered_json::object();  // key -> the parameter's value as config.json has it
    std::string hash;                  // 16 hex digits
    std::string dir;                   // OUT/points/<hash>
    std::vector<std::string> argv;     // the `vpsim run` command, argv[0] the vpsim binary
    // The file whose presence says the point finished (a sweep's `vpsim run` writes stats.json
    // last; a regression's run writes result.json last, tb/regress.h).
    std::string done_file = "stats.json";
};

// Every point of the study, checked (scenes load, axis keys and values are parameters);
// throws StudyError (an unknown key lists the valid ones) before anything runs. `exe`: the
// vpsim binary the points run (its bytes are part of every point's hash).
std::vector<Point> resolve_points(const Study& s, const std::string& out_dir, const std::string& exe);
// The resolved study as study.json holds it.
nlohmann::ordered_json study_json(const Study& s, const std::vector<Point>& points);
// Reads OUT/study.json back (for `vpsim sweep collect`): the study's name, axes and metrics,
// and every point (hash, scene, repeat, axis values; dir = OUT/points/<hash>). No argv.
void load_resolved_study(const std::string& out_dir, Study& s, std::vector<Point>& points);

// What ran a point left in its directory: Done when its done_file is there.
enum class PointState { Done, Failed, Missing };
PointState point_state(const Point& p, int* exit_status = nullptr, std::string* message = nullptr);

// The shell line that runs one point and records its exit status (backends that run points
// through a shell: GNU parallel, Slurm job scripts).
std::string point_shell_command(const Point& p);

// A configuration value as a results cell and an axis value's text: strings as they are,
// anything else as JSON.
std::string cell_text(const nlohmann::json& v);

}  // namespace vpsim::study

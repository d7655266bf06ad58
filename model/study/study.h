// A study (docs/sweep.md): scenes x parameter axes x repeats, read from a study file (schema
// "vpsim-study-1") and/or built from `vpsim sweep`'s flags. This file is the study format; the
// points it expands to are in points.h, how they run in backend.h, the results table in results.h.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::study {

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
    // Every point runs its scene only up to this draw (`vpsim run --draws`; `vpsim why`'s window);
    // 0: the whole scene.
    uint64_t draws = 0;
    // `vpsim run` options every point runs with to be sampled (`--sample ...`, docs/sampling.md);
    // empty: every point in full.
    std::vector<std::string> sample;
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
// Checks a --metric / "metrics" pattern (non-empty, printable); throws StudyError.
void check_metric_pattern(const std::string& pattern, const std::string& where);

}  // namespace vpsim::study

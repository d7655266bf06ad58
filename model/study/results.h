// A study's results table: results.csv and results.jsonl from every point's stats.json.
#pragma once

#include "model/study/points.h"

#include <string>
#include <vector>

namespace vpsim::study {

// Written atomically; only the columns s.metrics keeps (a pattern that matches no column is a
// StudyError listing them). Throws std::runtime_error when a point's stats.json is unreadable.
void write_results(const std::string& out_dir, const Study& s, const std::vector<Point>& points);

}  // namespace vpsim::study

// Correlation of the timing model with published measurements of real chips (docs/calibration.md,
// "Correlation with measured hardware"; `vpsim bench correlate`). A measurements file
// (examples/correlation/measurements.json) lists figures read from reviews: the test, the chip and
// its clock, the board, driver and system where known, the value and unit, the page and the
// sentence quoted, the preset the chip maps to and the scene that rebuilds the test. Each figure's
// scene runs on its preset (at the chip's clock) and the model's output is turned into the
// figure's unit:
//   triangles/s        = triangles drawn / (cycles / clock)
//   frames/s           = (triangles/s) / (the test's triangles per frame)
// Figures are split by position in the file: every third is held out (split_holdout); nothing is
// fitted to either set.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::bench {

// A measurements file that breaks a rule: "FILE: /figures/3/url: expected ... (the rule)".
struct MeasurementError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class Measure { TrianglesPerSecond, FramesPerSecond };
// Rate: the test measures vertex throughput, the model should reproduce it (error counted).
// UpperBound: the vertex pipeline is one of several limits (a game test): the model's figure is a
// bound the measurement must not exceed.
enum class Comparison { Rate, UpperBound };

const char* measure_name(Measure m);           // "triangles_per_second", "frames_per_second"
const char* comparison_name(Comparison c);     // "rate", "upper_bound"

struct Measurement {
    size_t index = 0;  // position in the file's "figures" (0-based)
    bool holdout = false;
    std::string id, test, test_kind, chip, board, driver, system, settings, unit, url, quote, date, preset, scene,
        notes, triangles_per_frame_source;
    std::string scene_path;  // `scene` resolved against the file's directory
    double core_mhz = 0, value = 0, unit_scale = 1, triangles_per_frame = 0;
    Measure measure = Measure::TrianglesPerSecond;
    Comparison comparison = Comparison::Rate;
    std::vector<std::string> sets;  // the figure's own unit.param=value overrides (after its clock)
};

// A published figure that is not a row (a vendor figure, an inferred value, a measurement that
// cannot be converted), kept beside the rows with the reason.
struct ContextFigure {
    std::string id, what, url, quote, why;
};

struct Measurements {
    std::string path;
    std::vector<Measurement> figures;
    std::vector<ContextFigure> context;
};

// The split rule: figure k (1-based position in the file) is held out when k is a multiple of 3.
bool split_holdout(size_t index);
// The rule in words (for the outputs).
extern const char* const kSplitRule;
// The correlation goal: at least kGoalFigures rate figures over kGoalKinds kinds of test, every
// holdout rate figure within ±kTolerance.
constexpr double kTolerance = 0.15;
constexpr size_t kGoalFigures = 12, kGoalKinds = 3;

// Reads and checks a measurements file; throws MeasurementError naming the file, the JSON pointer
// (or line and column) and the rule broken. Presets are checked by name; scenes when run.
Measurements load_measurements(const std::string& path);
Measurements parse_measurements(const nlohmann::json& j, const std::string& path);

struct CorrelationRow {
    Measurement m;
    std::vector<std::string> sets;  // what the figure ran with on top of its preset (its clock first)
    double clock_mhz = 0;
    uint64_t cycles = 0, triangles = 0, shaded = 0;
    double triangles_per_second = 0;
    double model = 0;  // in the figure's unit
    double error = 0;  // (model - measured) / measured
    bool within = false;  // Rate: |error| <= kTolerance; UpperBound: model >= measured
    std::string bottleneck;
};

// Runs every figure's scene: the preset, the chip's clock when it differs from the preset's, the
// figure's sets, then `sets` (--set, on top of every figure). Throws MeasurementError for a scene
// that cannot be read or run, ParamError for a bad `sets` entry.
std::vector<CorrelationRow> correlate(const Measurements& data, const std::vector<std::string>& sets = {});

struct SetSummary {
    size_t rate_figures = 0, within = 0, bounds = 0, bounds_held = 0;
    double mean_abs_error = 0;  // over the rate figures
};
struct CorrelationSummary {
    SetSummary fit, holdout;
    size_t rate_figures = 0, kinds = 0;  // rate figures and their distinct test kinds
    bool goal_met = false;
    std::string goal_text;  // what is met and what is not, in words
};
CorrelationSummary summarise(const std::vector<CorrelationRow>& rows);

}  // namespace vpsim::bench

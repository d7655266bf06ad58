// What a unit type contributes to a run's summary (docs/timing-model.md, "A unit's summary"):
// named values computed from the counters of its units — gem5's statistics::Formula in a
// statistics::Group is the model — and the rows of `vpsim run`'s text summary that show them.
// The pipeline evaluates every declared value and row without knowing any unit; `vpsim run`
// prints them in their ranks' order among its own (cycles, stalls, bottleneck, ...).
//
// * SummaryUnits — the units of one type in a run (none when the topology has none: a sum of
//   nothing is 0), with the run's cycles and clock.
// * SummaryMetric — a value: a key ("alu_utilisation"; "tessellator/patches" nests it in an
//   object of the summary JSON), its rank in the summary JSON, and its formula: from its own
//   units' counters (`value`), or from other declared values (`derived`, evaluated after every
//   `value`). A null value is left out of the JSON.
// * SummaryLine — the text rows a type contributes at a rank, computed from its own units and
//   from every value of the run.
#pragma once

#include "model/common/stats.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::sc {

struct SummaryUnits {
    std::vector<const StatGroup*> groups;  // the type's units' groups, in topology order
    uint64_t cycles = 0;
    double clock_mhz = 0;

    uint64_t sum(const std::string& counter) const;  // over the units
    uint64_t max(const std::string& counter) const;  // the largest of the units'
    uint64_t busy_cycles() const;                    // summed
    // The first unit's derived rate (StatGroup::rate); 0 when there is none or it is undefined.
    double rate(const std::string& name) const;
    // sum(numerator) / sum(denominator), 0 when the denominator is 0 ("cycles": the run's cycles).
    double ratio(const std::string& numerator, const std::string& denominator) const;
    // One unit's rate `name`; over several units the same ratio of their summed counters.
    double rate(const std::string& name, const std::string& numerator, const std::string& denominator) const;
};

struct SummaryValue {
    std::string key;
    int rank = 0;
    nlohmann::ordered_json value;
    bool in_json = true;
};

// A run's summary values, in declaration order.
class SummaryValues {
public:
    void add(SummaryValue v) { items_.push_back(std::move(v)); }
    const std::vector<SummaryValue>& items() const { return items_; }
    const nlohmann::ordered_json* find(const std::string& key) const;  // null when no unit declares it
    // A declared value as a count or a real (std::logic_error when no unit type declares `key`).
    uint64_t count(const std::string& key) const;
    double real(const std::string& key) const;

private:
    std::vector<SummaryValue> items_;
};

struct SummaryMetric {
    std::string key;
    int rank = 0;  // its place in the summary JSON (docs/timing-model.md lists the ranks in use)
    std::function<nlohmann::ordered_json(const SummaryUnits&)> value;       // from its units' counters
    std::function<nlohmann::ordered_json(const SummaryValues&)> derived;    // or from the run's values
    bool in_json = true;  // false: for the progress line and callers only, not in the summary JSON
};

// A value that is the sum of `counter` over the type's units.
SummaryMetric summed_metric(std::string key, int rank, std::string counter, bool in_json = true);
// A value that is SummaryUnits::rate(name, numerator, denominator).
SummaryMetric rate_metric(std::string key, int rank, std::string name, std::string numerator, std::string denominator);

struct SummaryRow {
    int rank = 0;
    std::string label, text;  // label "": a continuation row
};

using SummaryRows = std::vector<std::pair<std::string, std::string>>;  // (label, text)

struct SummaryLine {
    int rank = 0;  // its place in the text summary
    // The rows; none to say nothing in this run.
    std::function<SummaryRows(const SummaryUnits& own, const SummaryValues& all)> rows;
};

struct UnitSummary {
    std::vector<SummaryMetric> metrics;
    std::vector<SummaryLine> lines;
};

// 1234567 -> "1,234,567" (the summary's counts).
std::string group_digits(uint64_t v);

// The summary JSON's value of a key "a/b": j["a"]["b"].
void put_summary_value(nlohmann::ordered_json& j, const SummaryValue& v);

}  // namespace vpsim::sc

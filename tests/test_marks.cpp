// A run's marks (RunOptions::marks, used by sampled simulation, docs/sampling.md "A unit's
// cycles"): at the cycle the output emits a given reference, every unit's cycle accounting up to
// that cycle, read without disturbing the run.
#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/scene/default_scene.h"

#include <catch2/catch.hpp>

#include <cstdint>
#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace vpsim;

namespace marks_test {

struct Mark {
    sc::Cycle cycle = 0;
    std::map<std::string, CyclesAt> units;           // timed groups by unit
    std::map<std::string, std::vector<std::string>> reasons;
};

sc::RunResult run_marked(const std::vector<uint64_t>& marks, std::vector<Mark>& out, uint64_t interval = 0,
                         bool stop_at_last_mark = false) {
    sc::RunOptions o;
    o.marks = marks;
    o.stats_interval = interval;
    o.stop_at_last_mark = stop_at_last_mark;
    o.at_mark = [&out](sc::Cycle now, const std::vector<const StatGroup*>& groups) {
        Mark m;
        m.cycle = now;
        for (const StatGroup* g : groups)
            if (g->timed()) {
                m.units[g->unit()] = g->cycles_at(now);
                m.reasons[g->unit()] = g->stall_reasons();
            }
        out.push_back(std::move(m));
    };
    return sc::run_pipeline(scene::default_scene(), sc::default_params(), vs::Profile::d3d8(), o);
}

// The first row of a time series CSV, by column name.
std::map<std::string, uint64_t> first_interval(const std::string& csv) {
    std::stringstream ss(csv);
    std::string header, row;
    std::getline(ss, header);
    std::getline(ss, row);
    std::stringstream h(header), r(row);
    std::map<std::string, uint64_t> out;
    std::string name, value;
    while (std::getline(h, name, ',') && std::getline(r, value, ','))
        if (value.find('.') == std::string::npos) out[name] = std::stoull(value);  // counts, not mean occupancies
    return out;
}

}  // namespace marks_test

using marks_test::Mark;

TEST_CASE("Run marks: at each mark every timed unit's busy, idle and stall cycles add up to the mark's cycle",
          "[timing][marks]") {
    std::vector<Mark> marks;
    const sc::RunResult r = marks_test::run_marked({1, 5000, 20000}, marks);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0].cycle < marks[1].cycle);
    CHECK(marks[1].cycle < marks[2].cycle);
    CHECK(marks[2].cycle < r.cycles);
    for (const Mark& m : marks)
        for (const auto& [unit, c] : m.units) {
            INFO("unit " << unit << " at cycle " << m.cycle);
            uint64_t sum = c.busy + c.idle;
            for (uint64_t v : c.stalled) sum += v;
            CHECK(sum == m.cycle);
            CHECK(c.stalled.size() == m.reasons.at(unit).size());
        }
    // The memory and the declaration decoder add cycles at the end only; they are there too.
    CHECK(marks[1].units.count("memory") == 1);
    CHECK(marks[1].units.count("decl_decoder") == 1);
}

TEST_CASE("Run marks: a unit's cycles at a mark are the time series' up to that cycle", "[timing][marks]") {
    std::vector<Mark> marks;
    marks_test::run_marked({20000}, marks);
    REQUIRE(marks.size() == 1);
    const Mark& m = marks[0];
    // The time series, intervals as long as the mark's cycle: its first row is [0, mark).
    std::vector<Mark> again;
    const sc::RunResult r = marks_test::run_marked({20000}, again, m.cycle);
    REQUIRE(again.size() == 1);
    CHECK(again[0].cycle == m.cycle);
    const auto row = marks_test::first_interval(r.timeseries_csv);
    REQUIRE(row.at("interval_end") == m.cycle);
    size_t compared = 0;
    for (const auto& [unit, c] : m.units) {
        if (!row.count(unit + ".busy")) continue;  // a unit without a state signal (the memory)
        INFO("unit " << unit);
        CHECK(c.busy == row.at(unit + ".busy"));
        CHECK(c.idle == row.at(unit + ".idle"));
        const auto& reasons = m.reasons.at(unit);
        for (size_t k = 0; k < reasons.size(); ++k) CHECK(c.stalled[k] == row.at(unit + ".stalled." + reasons[k]));
        ++compared;
    }
    CHECK(compared >= 7);  // front end to output
}

TEST_CASE("Run marks: a run with marks has the cycles and statistics of a run without", "[timing][marks]") {
    std::vector<Mark> marks;
    const sc::RunResult with = marks_test::run_marked({100, 20000, 40000}, marks);
    const sc::RunResult without = sc::run_pipeline(scene::default_scene(), sc::default_params(), vs::Profile::d3d8());
    CHECK(marks.size() == 3);
    CHECK(with.cycles == without.cycles);
    CHECK(with.stats.dump() == without.stats.dump());
}

TEST_CASE("Run marks: a mark past the run's last reference is never reached", "[timing][marks]") {
    std::vector<Mark> marks;
    const sc::RunResult r = marks_test::run_marked({1000, 1u << 30}, marks);
    CHECK(marks.size() == 1);
    CHECK(r.count("references") < (1u << 30));
}

TEST_CASE("Run marks: a mark given twice is reached twice, in the same cycle", "[timing][marks]") {
    std::vector<Mark> marks;
    marks_test::run_marked({3000, 3000, 4000}, marks);
    REQUIRE(marks.size() == 3);
    CHECK(marks[0].cycle == marks[1].cycle);
    CHECK(marks[1].cycle < marks[2].cycle);
}

TEST_CASE("Run marks: a run stopped at its last mark ends in that cycle, with the marks of a run that goes on",
          "[timing][marks]") {
    std::vector<Mark> on, stopped;
    const sc::RunResult full = marks_test::run_marked({5000, 20000}, on);
    const sc::RunResult r = marks_test::run_marked({5000, 20000}, stopped, 0, true);
    REQUIRE(on.size() == 2);
    REQUIRE(stopped.size() == 2);
    CHECK(r.cycles == stopped[1].cycle + 1);
    CHECK(r.cycles < full.cycles);
    CHECK(r.count("references") < full.count("references"));
    CHECK(r.cycle_errors.empty());
    for (size_t k = 0; k < 2; ++k) {
        CHECK(stopped[k].cycle == on[k].cycle);
        REQUIRE(stopped[k].units.size() == on[k].units.size());
        for (const auto& [unit, c] : on[k].units) {
            INFO("mark " << k << ", unit " << unit);
            const CyclesAt& s = stopped[k].units.at(unit);
            CHECK(s.busy == c.busy);
            CHECK(s.idle == c.idle);
            CHECK(s.stalled == c.stalled);
        }
    }
}

TEST_CASE("A run for its cycles only gives the same cycles and summary values, without the statistics report",
          "[marks]") {
    const scene::Scene s = scene::default_scene();
    sc::RunOptions o;
    const sc::RunResult full = sc::run_pipeline(s, sc::default_params(), vs::Profile::d3d8(), o);
    o.cycles_only = true;
    const sc::RunResult bare = sc::run_pipeline(s, sc::default_params(), vs::Profile::d3d8(), o);
    CHECK(bare.cycles == full.cycles);
    CHECK(bare.count("references") == full.count("references"));
    CHECK(bare.count("shaded") == full.count("shaded"));
    CHECK(bare.count("references") > 0);
    CHECK(bare.cycle_errors.empty());
    CHECK(full.stats.contains("units"));
    CHECK(bare.stats.is_null());
    CHECK(bare.top_stalls.empty());
    CHECK(bare.bottleneck.empty());
}

// The run's time series (model/sc/timeseries.h, `vpsim run --stats-interval N`): it counts what
// the units' CycleAccounts count, interval by interval, and a run with it gives the same results.
#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/sc/timeseries.h"
#include "model/scene/default_scene.h"
#include "model/scene/scene.h"

#include <catch2/catch.hpp>

#include <map>
#include <sstream>
#include <string>
#include <vector>

using namespace vpsim;

namespace {

struct Csv {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    size_t col(const std::string& name) const {
        for (size_t i = 0; i < header.size(); ++i)
            if (header[i] == name) return i;
        FAIL("no column " << name);
        return 0;
    }
};

std::vector<std::string> split(const std::string& line) {
    std::vector<std::string> v;
    std::stringstream ss(line);
    std::string f;
    while (std::getline(ss, f, ',')) v.push_back(f);
    return v;
}

Csv parse(const std::string& text) {
    Csv c;
    std::stringstream ss(text);
    std::string line;
    if (std::getline(ss, line)) c.header = split(line);
    while (std::getline(ss, line)) c.rows.push_back(split(line));
    return c;
}

sc::RunResult run(const scene::Scene& s, uint64_t interval, const std::vector<std::string>& sets = {}) {
    ParamSet p = sc::default_params();
    for (const auto& kv : sets) p.apply_set(kv);
    sc::RunOptions opt;
    opt.stats_interval = interval;
    return sc::run_pipeline(s, p, vs::Profile::d3d8(), opt);
}

}  // namespace

TEST_CASE("Time series: a state held across intervals is split at their boundaries", "[timeseries]") {
    sc::TimeSeries ts(10);
    ts.signal(0, "u", "state");
    ts.signal(1, "c", "occupancy");
    ts.signal(2, "c", "full");
    ts.signal(3, "c", "pushes");
    ts.signal(4, "c", "pops");  // not recorded
    ts.change(0, 4, 1);         // idle 0-3, busy 4-14
    ts.change(1, 5, 2);         // 2 items from cycle 5
    ts.change(3, 5, 2);
    ts.change(2, 5, 1);
    ts.change(0, 15, 2);        // stalled (reason 0) 15-24
    ts.change(2, 12, 0);
    ts.change(1, 12, 0);
    ts.change(3, 21, 3);
    ts.change(0, 25, 0);
    ts.change(4, 25, 7);
    ts.finish(27);
    const Csv c = parse(ts.csv({{"u", {"waits"}}}));
    REQUIRE(c.header == std::vector<std::string>{"interval_begin", "interval_end", "u.busy", "u.idle",
                                                 "u.stalled.waits", "c.occupancy", "c.full", "c.pushes"});
    REQUIRE(c.rows.size() == 3);
    CHECK(c.rows[0] == std::vector<std::string>{"0", "10", "6", "4", "0", "1.0000", "5", "2"});
    CHECK(c.rows[1] == std::vector<std::string>{"10", "20", "5", "0", "5", "0.4000", "2", "0"});
    CHECK(c.rows[2] == std::vector<std::string>{"20", "27", "0", "2", "5", "0.0000", "0", "1"});
    CHECK_THROWS_AS(sc::TimeSeries(0), std::invalid_argument);
}

TEST_CASE("Time series: a run with --stats-interval has the same cycles and stats.json as one without",
          "[timeseries]") {
    const scene::Scene s = scene::default_scene();
    const sc::RunResult off = run(s, 0);
    const sc::RunResult on = run(s, 997);
    CHECK(off.timeseries_csv.empty());
    REQUIRE_FALSE(on.timeseries_csv.empty());
    CHECK(on.cycles == off.cycles);
    CHECK(on.stats.dump() == off.stats.dump());
    CHECK(on.count("shaded") == off.count("shaded"));
}

TEST_CASE("Time series: every interval adds up and the columns sum to stats.json's cycles", "[timeseries]") {
    const scene::Scene s = scene::default_scene();
    const uint64_t n = 1000;
    const sc::RunResult r = run(s, n, {"vertex_alu.engines=1"});
    REQUIRE(r.cycle_errors.empty());
    const Csv c = parse(r.timeseries_csv);
    REQUIRE(c.rows.size() == (r.cycles + n - 1) / n);
    CHECK(std::stoull(c.rows.back()[1]) == r.cycles);
    const std::vector<std::string> units = {"output", "vertex_alu", "vertex_fetch", "index_fetch",
                                            "tessellator", "constant_loader", "front_end"};
    for (const std::string& u : units) {
        INFO("unit " << u);
        const auto& g = r.stats["units"][u]["cycles"];
        std::vector<std::pair<std::string, uint64_t>> cols = {{u + ".busy", g["busy"].get<uint64_t>()},
                                                              {u + ".idle", g["idle"].get<uint64_t>()}};
        for (const auto& [reason, v] : g["stalled"].items())
            cols.push_back({u + ".stalled." + reason, v["cycles"].get<uint64_t>()});
        std::vector<size_t> idx;
        for (const auto& [name, total] : cols) idx.push_back(c.col(name));
        std::vector<uint64_t> sums(cols.size(), 0);
        for (const auto& row : c.rows) {
            const uint64_t len = std::stoull(row[1]) - std::stoull(row[0]);
            uint64_t in_row = 0;
            for (size_t k = 0; k < idx.size(); ++k) {
                const uint64_t v = std::stoull(row[idx[k]]);
                sums[k] += v;
                in_row += v;
            }
            CHECK(in_row == len);
        }
        for (size_t k = 0; k < cols.size(); ++k) {
            INFO("column " << cols[k].first);
            CHECK(sums[k] == cols[k].second);
        }
    }
    // The ALU is busy for a good part of the run on one engine; the channels carried every vertex.
    uint64_t pushes = 0;
    const size_t p = c.col("vertex_fetch_to_alu.pushes");
    for (const auto& row : c.rows) pushes += std::stoull(row[p]);
    CHECK(pushes == r.stats["units"]["vertex_fetch"]["counters"]["vertices"]["value"].get<uint64_t>());
}

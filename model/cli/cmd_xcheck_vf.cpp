// vpsim xcheck --unit vertex_fetch: the vertex fetch RTL against the golden vertex fetch
// (tb/vf_xcheck.h, docs/vertex-fetch-rtl.md).
#include "model/cli/commands.h"
#include "model/cli/xcheck_vf.h"
#include "tb/vf_xcheck.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <unistd.h>

namespace vpsim::cli {

void add_vf_xcheck_options(CLI::App* c, VfXcheckArgs& a) {
    c->add_option("--unit", a.unit,
                  "The unit to cross-check: decl_decoder (default) or vertex_fetch (rtl/vertex_fetch.sv against the "
                  "golden vertex fetch: random layouts x vertex data x memory latency and back-pressure; "
                  "docs/vertex-fetch-rtl.md). With vertex_fetch, --random counts cases (default 10000)")
        ->check(CLI::IsMember({"decl_decoder", "vertex_fetch"}));
    c->add_option("--latency-min", a.lat_min, "With --unit vertex_fetch: the memory latency's minimum in cycles (default: drawn per case)")
        ->check(CLI::Range(int64_t(1), int64_t(100000)));
    c->add_option("--latency-max", a.lat_max, "With --unit vertex_fetch: the memory latency's maximum in cycles (default: drawn per case)")
        ->check(CLI::Range(int64_t(1), int64_t(100000)));
    c->add_option("--req-ready", a.req_ready,
                  "With --unit vertex_fetch: probability that the memory takes a request in a cycle (default: drawn per case)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_option("--idx-valid", a.idx_valid,
                  "With --unit vertex_fetch: probability that a vertex index is offered in a cycle (default: drawn per case)")
        ->check(CLI::Range(0.05, 1.0));
    c->add_flag("--no-directed", a.no_directed, "With --unit vertex_fetch: skip the directed cases");
}

namespace {

nlohmann::ordered_json case_json(const tb::vf::Case& c) {
    nlohmann::ordered_json j;
    j["origin"] = c.origin;
    j["seed"] = c.seed;
    j["index"] = c.index;
    j["declaration"] = c.tokens;
    nlohmann::ordered_json s = nlohmann::ordered_json::array();
    for (uint32_t k = 0; k < 16; ++k) s.push_back({{"base", c.base[k]}, {"stride", c.stride[k]}});
    j["streams"] = s;
    j["vertices"] = c.indices;
    j["flush"] = c.flush;
    j["memory_seed"] = c.mem_seed;
    j["latency"] = {c.timing.lat_min, c.timing.lat_max};
    j["req_ready"] = c.timing.req_ready;
    j["out_ready"] = c.timing.out_ready;
    j["idx_valid"] = c.timing.idx_valid;
    return j;
}

}  // namespace

int run_vf_xcheck(const VfXcheckArgs& a) {
    if (!a.rtl.empty() || a.mutants || !a.coverage.empty()) {
        std::fprintf(stderr, "vpsim xcheck --unit vertex_fetch: --rtl, --coverage and --mutants are not built yet\n");
        return 2;
    }
    if (a.lat_min >= 0 && a.lat_max >= 0 && a.lat_max < a.lat_min) {
        std::fprintf(stderr, "vpsim xcheck: --latency-max %lld is less than --latency-min %lld\n", (long long)a.lat_max,
                     (long long)a.lat_min);
        return 2;
    }
    tb::vf::Options o;
    o.random = a.random;
    o.seed = a.seed;
    o.only = a.only;
    o.directed = !a.no_directed;
    o.jobs = a.jobs;
    o.first_mismatch = a.first_mismatch;
    o.lat_min = a.lat_min;
    o.lat_max = a.lat_max;
    o.req_ready = a.req_ready;
    o.out_ready = a.out_ready;
    o.idx_valid = a.idx_valid;
    o.progress = a.json ? 0 : (isatty(2) ? 1 : 2);
    const std::string rtl_name = "rtl/vertex_fetch.sv";
    tb::vf::Report r;
    try {
        r = tb::vf::run(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim xcheck: %s\n", e.what());
        return 2;
    }
    const double vps = r.seconds > 0 ? double(r.vertices) / r.seconds : 0;
    if (a.json) {
        nlohmann::ordered_json j;
        j["unit"] = "vertex_fetch";
        j["rtl"] = rtl_name;
        j["seed"] = a.seed;
        j["cases"] = r.cases;
        j["vertices"] = r.vertices;
        j["elements"] = r.elements;
        j["cycles"] = r.cycles;
        j["mismatches"] = r.mismatches;
        j["seconds"] = r.seconds;
        j["vertices_per_second"] = vps;
        j["jobs"] = a.jobs;
        nlohmann::ordered_json f = nlohmann::ordered_json::array();
        for (const auto& m : r.failures) {
            nlohmann::ordered_json x;
            x["origin"] = m.c.origin;
            x["index"] = m.c.index;
            x["vertex"] = m.vertex;
            x["register"] = m.reg;
            x["first_difference"] = m.what;
            x["replay"] = m.replay;
            x["case"] = case_json(m.c);
            if (!m.shrunk.indices.empty()) {
                x["shrunk"] = case_json(m.shrunk);
                x["shrunk_difference"] = m.shrunk_what;
            }
            f.push_back(x);
        }
        j["failures"] = f;
        j["coverage_holes"] = r.holes;
        std::printf("%s\n", j.dump(2).c_str());
    } else {
        std::printf("vertex fetch cross-check: %s against the golden vertex fetch (vs::fetch_vertex)\n", rtl_name.c_str());
        std::printf("cases: %llu  vertices: %llu  elements: %llu  RTL cycles: %llu  mismatches: %llu\n",
                    (unsigned long long)r.cases, (unsigned long long)r.vertices, (unsigned long long)r.elements,
                    (unsigned long long)r.cycles, (unsigned long long)r.mismatches);
        std::printf("time: %.2f s  (%.0f vertices/s, --jobs %d)\n", r.seconds, vps, a.jobs);
        for (const auto& m : r.failures) {
            std::printf("\nMISMATCH %s case %llu (seed %llu): %s\n", m.c.origin.c_str(), (unsigned long long)m.c.index,
                        (unsigned long long)m.c.seed, m.what.c_str());
            std::printf("  replay: %s\n%s", m.replay.c_str(), tb::vf::describe(m.c).c_str());
            if (!m.shrunk.indices.empty()) {
                std::printf("  shrunk to %zu vertices, %zu declaration tokens: %s\n%s", m.shrunk.indices.size(),
                            m.shrunk.tokens.size(), m.shrunk_what.c_str(), tb::vf::describe(m.shrunk).c_str());
            }
        }
        if (o.only < 0 && o.directed && !o.first_mismatch) {
            std::printf("\nfunctional coverage:\n%s", r.coverage.table().c_str());
            if (r.holes.empty())
                std::printf("coverage: every bin hit\n");
            else
                for (const auto& h : r.holes) std::printf("coverage hole: %s\n", h.c_str());
        }
    }
    return r.ok() ? 0 : 1;
}

}  // namespace vpsim::cli

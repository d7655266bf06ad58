#include "model/study/sample_stats.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace vpsim::study {

namespace {

int64_t rounded(double v) { return int64_t(std::llround(v)); }

// units/UNIT/cycles: busy, its half-width, each stall reason's estimate and half-width, the
// stalls' total (topology order, as the estimate lists them).
nlohmann::ordered_json unit_stats(const SampleResult& r) {
    nlohmann::ordered_json units = nlohmann::ordered_json::object();
    for (const SampledStat& st : r.stats) {
        nlohmann::ordered_json& c = units[st.unit]["cycles"];
        if (st.reason == "busy") {
            c["busy"] = rounded(st.cycles.value);
            c["busy_half_width"] = st.cycles.half_width;
            continue;
        }
        c["stalled"][st.reason] = {{"cycles", rounded(st.cycles.value)}, {"half_width", st.cycles.half_width}};
    }
    for (auto& [name, u] : units.items()) {
        nlohmann::ordered_json& c = u["cycles"];
        if (!c.contains("stalled")) c["stalled"] = nlohmann::ordered_json::object();
        int64_t total = 0;
        for (const auto& [reason, v] : c["stalled"].items()) total += v["cycles"].get<int64_t>();
        c["stalled_total"] = total;
    }
    return units;
}

}  // namespace

nlohmann::ordered_json sample_stats_json(const std::string& scene, const SampleResult& r) {
    const SamplePlan& p = r.plan;
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-stats-sampled-1";
    j["cycles"] = rounded(r.cycles.value);
    j["units"] = unit_stats(r);
    nlohmann::ordered_json sample = sample_json(scene, r);
    sample.erase("stats");  // in "units"
    sample.erase("scene");
    auto phase_units = nlohmann::ordered_json::array();
    for (const SamplePhase& ph : p.phases) phase_units.push_back(ph.count);
    sample["phase_units"] = phase_units;
    auto blocks = nlohmann::ordered_json::array();
    for (size_t i = 0; i < p.blocks.size() && i < r.block_cycles.size(); ++i) {
        const SampleBlock& b = p.blocks[i];
        blocks.push_back({{"first", b.first},
                          {"last", b.last},
                          {"phase", b.sampled ? nlohmann::ordered_json(b.phase) : nlohmann::ordered_json()},
                          {"cycles", r.block_cycles[i]}});
    }
    sample["blocks"] = blocks;
    j["sample"] = sample;
    nlohmann::ordered_json s;
    s["scene"] = scene;
    s["references"] = p.references;
    s["cycles"] = rounded(r.cycles.value);
    s["sampled"] = true;
    const double confidence = std::erf(r.z / std::sqrt(2.0));
    s["sample"] = {{"cycles_estimate", r.cycles.value},
                   {"cycles_half_width", r.cycles.half_width},
                   {"cycles_low", r.cycles.value - r.cycles.half_width},
                   {"cycles_high", r.cycles.value + r.cycles.half_width},
                   {"relative_half_width", r.cycles.value > 0 ? r.cycles.half_width / r.cycles.value : 0.0},
                   {"confidence", confidence},
                   {"samples", p.samples},
                   {"units", p.units.size()},
                   {"period", p.period},
                   {"warmup", p.warmup},
                   {"seed", p.seed},
                   {"detail_share", p.references ? double(r.detail_references) / double(p.references) : 0.0}};
    s["bottleneck"] = {{"text", "not analysed in a sampled run (the stall chains need every cycle): see the busy "
                                "and stall estimates"}};
    s["host_seconds"] = r.host_seconds;
    j["summary"] = s;
    return j;
}

void note_sample_refused(nlohmann::ordered_json& summary, const std::string& reason) {
    summary["sampled"] = false;
    summary["sample"] = {{"refused", reason}};
}

bool is_sampled_stats(const nlohmann::json& stats) {
    return stats.is_object() && stats.value("schema", std::string()) == "vpsim-stats-sampled-1";
}

Estimate sampled_difference(const nlohmann::json& base, const nlohmann::json& other, double z) {
    if (!is_sampled_stats(base) || !is_sampled_stats(other))
        throw std::runtime_error("a difference of sampled runs needs two sampled runs' statistics");
    const nlohmann::json& a = base.at("sample");
    const nlohmann::json& b = other.at("sample");
    for (const char* k : {"units", "period", "warmup", "seed", "phase_units"})
        if (a.at(k) != b.at(k))
            throw std::runtime_error(std::string("two sampled runs of different plans (their ") + k +
                                     " differ): their blocks cannot be paired");
    const nlohmann::json& ba = a.at("blocks");
    const nlohmann::json& bb = b.at("blocks");
    if (ba.size() != bb.size()) throw std::runtime_error("two sampled runs with different blocks cannot be paired");
    std::vector<Stratum> strata(a.at("phase_units").size());
    for (size_t h = 0; h < strata.size(); ++h) strata[h].units = a["phase_units"][h].get<uint64_t>();
    double exact = 0;
    for (size_t i = 0; i < ba.size(); ++i) {
        if (ba[i].at("first") != bb[i].at("first") || ba[i].at("phase") != bb[i].at("phase"))
            throw std::runtime_error("two sampled runs measured different units: their blocks cannot be paired");
        const double d = bb[i].at("cycles").get<double>() - ba[i].at("cycles").get<double>();
        if (ba[i]["phase"].is_null())
            exact += d;
        else
            strata.at(ba[i]["phase"].get<size_t>()).values.push_back(d);
    }
    return stratified_estimate(exact, strata, z);
}

}  // namespace vpsim::study

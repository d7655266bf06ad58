#include "model/study/sample_stats.h"

#include <cmath>
#include <cstdint>

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
                          {"shaded", block_shaded(p, b)},
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

double sampled_half_width(const nlohmann::json& stats) {
    if (!is_sampled_stats(stats)) return 0;
    return stats.at("summary").at("sample").at("cycles_half_width").get<double>();
}

}  // namespace vpsim::study

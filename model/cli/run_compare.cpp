#include "model/cli/run_compare.h"

#include "model/cli/commands.h"
#include "model/common/file_util.h"
#include "model/decl/decl_text.h"
#include "tb/user_rtl_dut.h"
#include "tb/xcheck.h"

#include <fmt/format.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>

namespace vpsim::cli {

namespace {
// The first path where two JSON values differ ("" when equal).
std::string first_json_difference(const nlohmann::ordered_json& a, const nlohmann::ordered_json& b, const std::string& path) {
    if (a.is_object() && b.is_object()) {
        for (auto it = a.begin(); it != a.end(); ++it) {
            if (!b.contains(it.key())) return fmt::format("{}/{}: model {} | rtl (none)", path, it.key(), it.value().dump());
            const std::string d = first_json_difference(it.value(), b[it.key()], path + "/" + it.key());
            if (!d.empty()) return d;
        }
        for (auto it = b.begin(); it != b.end(); ++it)
            if (!a.contains(it.key())) return fmt::format("{}/{}: model (none) | rtl {}", path, it.key(), it.value().dump());
        return "";
    }
    if (a.is_array() && b.is_array() && a.size() == b.size()) {
        for (size_t i = 0; i < a.size(); ++i) {
            const std::string d = first_json_difference(a[i], b[i], fmt::format("{}/{}", path, i));
            if (!d.empty()) return d;
        }
        return "";
    }
    return a == b ? "" : fmt::format("{}: model {} | rtl {}", path, a.dump(), b.dump());
}

// The golden verdict in the corpus header form ("// expect: valid", "// expect: strict error D7
// @0; lenient valid"), as the shrunk files of vpsim xcheck have it.
std::string verdict(const std::vector<uint32_t>& tokens) {
    std::string part[2];
    for (int mode = 0; mode < 2; ++mode) {
        decl::DecoderOptions o;
        o.lenient = mode == 1;
        part[mode] = "valid";
        for (const auto& e : decl::decode(tokens, o).events)
            if (e.kind == decl::EventKind::Error) part[mode] = fmt::format("error {} @{}", decl::rule_id(e.code), e.value);
    }
    return part[0] == part[1] ? "// expect: " + part[0] : fmt::format("// expect: strict {}; lenient {}", part[0], part[1]);
}
}  // namespace

std::string write_mismatch_declaration(const sc::DeclDecoderMismatch& e, const std::string& dir) {
    std::filesystem::create_directories(dir);
    std::string cmd = e.command;
    for (char& ch : cmd)
        if (ch == '/') ch = '_';
    const std::string file = fmt::format("{}/decl-decoder-mismatch{}.decl", dir, cmd);
    std::string text = fmt::format("// vpsim run: the declaration of the scene's CreateVertexShader {} on which the decoder RTL "
                                   "differs from the model\n{}\n// {}\n",
                                   e.command, verdict(e.declaration), e.what());
    text += decl::to_text(e.declaration);
    write_file_atomic(file, text);
    return file;
}

int compare_with_model(const scene::Scene& scene, const ParamSet& params, const vs::Profile& profile,
                       const sc::RunOptions& model_options, const sc::RunResult& rtl_run, const rtl::UserRtl& rtl,
                       const CompareModel& c) {
    // 1. The model's pipeline: the same cycles and the same statistics in every unit.
    sc::RunResult m;
    try {
        m = sc::run_pipeline(scene, params, profile, model_options);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim run --compare-model: the model's run: %s\n", e.what());
        return 2;
    }
    int rc = 0;
    if (m.cycles != rtl_run.cycles) {
        std::fprintf(stderr, "vpsim run --compare-model: cycles: model %llu | rtl %llu\n", (unsigned long long)m.cycles,
                     (unsigned long long)rtl_run.cycles);
        rc = 1;
    }
    const std::string sd = first_json_difference(m.stats.value("units", nlohmann::ordered_json::object()),
                                                 rtl_run.stats.value("units", nlohmann::ordered_json::object()), "units");
    if (!sd.empty()) {
        std::fprintf(stderr, "vpsim run --compare-model: statistics differ, first at %s\n", sd.c_str());
        rc = 1;
    }
    std::printf("compare-model: pipeline: cycles model %llu | rtl %llu, statistics %s\n", (unsigned long long)m.cycles,
                (unsigned long long)rtl_run.cycles, sd.empty() ? "equal" : "differ");

    // 2. Directed arrays (the corpus, strict and lenient) and random ones on the same build.
    tb::XcheckOptions o;
    const std::string corpus = data_path("tb/corpus");
    if (corpus.empty()) {
        std::fprintf(stderr, "vpsim run --compare-model: the directed corpus %s\n", data_not_found("tb/corpus").c_str());
        return 2;
    }
    o.corpus = {corpus};
    o.random = c.random;
    o.seed = c.seed;
    o.show = 1;
    o.mismatch_dir = c.mismatch_dir;
    o.rtl = [&rtl] { return tb::make_user_dut(rtl); };
    o.replay_args = c.rtl_args;
    for (const auto& [name, value] : rtl.params()) {
        if (name == "CONST_COUNT") o.model.const_count = uint32_t(std::strtoul(value.c_str(), nullptr, 10));
        if (name == "MAX_LENGTH") o.model.max_length = uint32_t(std::strtoul(value.c_str(), nullptr, 10));
        if (name == "CONST_COUNT" || name == "MAX_LENGTH") o.replay_args.insert(o.replay_args.end(), {"-G", name + "=" + value});
    }
    tb::XcheckReport r;
    try {
        r = tb::run_xcheck(o);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim run --compare-model: directed arrays: %s\n", e.what());
        return 2;
    }
    std::printf("compare-model: arrays: %llu (corpus %s, strict and lenient, + %llu random, seed %llu), mismatches %llu\n",
                (unsigned long long)r.arrays, corpus.c_str(), (unsigned long long)c.random, (unsigned long long)c.seed,
                (unsigned long long)r.mismatches);
    for (const auto& g : r.groups)
        std::fprintf(stderr, "vpsim run --compare-model: %llu arrays differ in %s; first: %s: %s\n  replay: %s\n",
                     (unsigned long long)g.count, g.signature.c_str(), g.first_where.c_str(), g.first_detail.c_str(),
                     g.first_replay.c_str());
    if (r.mismatches) rc = 1;
    return rc;
}

}  // namespace vpsim::cli

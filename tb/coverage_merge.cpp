#include "tb/coverage_merge.h"

#include "model/common/file_util.h"
#include "model/common/json_error.h"
#include "model/common/printable.h"
#include "tb/vf_xcheck.h"
#include "tb/xcheck.h"

#include <fmt/format.h>

#include <array>

namespace vpsim::tb {

namespace {

using nlohmann::json;

// Every counter of a coverage record, in a fixed order.
template <size_t N>
void cells(std::array<uint64_t, N>& a, std::vector<uint64_t*>& out) {
    for (auto& x : a) out.push_back(&x);
}
template <size_t N, size_t M>
void cells(std::array<std::array<uint64_t, N>, M>& a, std::vector<uint64_t*>& out) {
    for (auto& row : a) cells(row, out);
}

std::vector<uint64_t*> all_cells(Coverage& c) {
    std::vector<uint64_t*> v;
    cells(c.token_kinds, v);
    cells(c.data_types, v);
    cells(c.events, v);
    cells(c.rules, v);
    cells(c.lenient_rules, v);
    return v;
}

std::vector<uint64_t*> all_cells(vf::Coverage& c) {
    std::vector<uint64_t*> v;
    cells(c.type_stream, v);
    cells(c.start_byte, v);
    cells(c.span2, v);
    cells(c.hit, v);
    cells(c.stride, v);
    cells(c.pressure, v);
    cells(c.data, v);
    cells(c.layout, v);
    return v;
}

// The bins of a coverage record, named as holes() names them: each counter alone at 0 makes
// exactly one hole, its name (a counter that makes none is no bin, e.g. rule 0).
template <class Cov>
void add_named(Cov c, UnitCoverage& u) {
    Cov probe = c;
    std::vector<uint64_t*> src = all_cells(c), p = all_cells(probe);
    for (uint64_t* x : p) *x = 1;
    for (size_t i = 0; i < p.size(); ++i) {
        *p[i] = 0;
        const std::vector<std::string> h = probe.holes();
        *p[i] = 1;
        if (h.size() == 1) u.add_bin(h[0], *src[i]);
    }
}

template <size_t N>
void read_array(const json& j, const char* key, std::array<uint64_t, N>& a, const std::string& source) {
    if (!j.contains(key) || !j[key].is_array() || j[key].size() != N)
        throw CoverageFileError(fmt::format("{}: /coverage/{}: expected an array of {} counts", source, key, N));
    for (size_t i = 0; i < N; ++i) {
        if (!j[key][i].is_number_unsigned())
            throw CoverageFileError(fmt::format("{}: /coverage/{}/{}: a count is a non-negative integer", source, key, i));
        a[i] = j[key][i].get<uint64_t>();
    }
}
template <size_t N, size_t M>
void read_array(const json& j, const char* key, std::array<std::array<uint64_t, N>, M>& a, const std::string& source) {
    if (!j.contains(key) || !j[key].is_array() || j[key].size() != M)
        throw CoverageFileError(fmt::format("{}: /coverage/{}: expected {} rows of {} counts", source, key, M, N));
    for (size_t r = 0; r < M; ++r) {
        const json row = json{{key, j[key][r]}};
        read_array(row, key, a[r], source);
    }
}

void named_counts(const json& r, const char* key, const char* prefix, UnitCoverage& u, const std::string& source) {
    if (!r.contains(key)) return;
    if (!r[key].is_object()) throw CoverageFileError(fmt::format("{}: /{}: expected an object NAME: hits", source, key));
    for (const auto& item : r[key].items()) {
        if (!item.value().is_number_unsigned())
            throw CoverageFileError(fmt::format("{}: /{}/{}: a count is a non-negative integer", source, key, printable(item.key(), 60)));
        u.add_bin(prefix + item.key(), item.value().get<uint64_t>());
    }
}

// A report's user bins and crosses (--bins), and its excluded and waived bins (either unit).
void user_and_excluded(const json& r, UnitCoverage& u, const std::string& source) {
    named_counts(r, "user_bins", "user bin ", u, source);
    named_counts(r, "user_crosses", "user cross ", u, source);
    for (const char* key : {"coverage_excluded", "coverage_waived"}) {
        if (!r.contains(key)) continue;
        if (!r[key].is_array()) throw CoverageFileError(fmt::format("{}: /{}: expected an array", source, key));
        for (const auto& e : r[key]) {
            if (!e.is_object() || !e.contains("bin") || !e["bin"].is_string())
                throw CoverageFileError(fmt::format("{}: /{}: each entry has a \"bin\"", source, key));
            auto& x = u.excluded[e["bin"].get<std::string>()];
            if (!x.first++) x.second = e.value("reason", "");
        }
    }
}

CoverageSet decoder_coverage(const json& r, const std::string& source) {
    Coverage c;
    const json& j = r["coverage"];
    read_array(j, "token_kinds", c.token_kinds, source);
    read_array(j, "data_types", c.data_types, source);
    read_array(j, "events_model", c.events[0], source);
    read_array(j, "events_rtl", c.events[1], source);
    read_array(j, "rules_model", c.rules[0], source);
    read_array(j, "rules_rtl", c.rules[1], source);
    read_array(j, "lenient_rules_model", c.lenient_rules[0], source);
    read_array(j, "lenient_rules_rtl", c.lenient_rules[1], source);
    CoverageSet s;
    UnitCoverage& u = s.units["decl_decoder"];
    u.runs = 1;
    add_named(c, u);
    user_and_excluded(r, u, source);
    return s;
}

CoverageSet fetch_coverage(const json& r, const std::string& source) {
    vf::Coverage c;
    const json& j = r["coverage"];
    read_array(j, "type_stream", c.type_stream, source);
    read_array(j, "start_byte", c.start_byte, source);
    read_array(j, "span2", c.span2, source);
    read_array(j, "hit", c.hit, source);
    read_array(j, "stride", c.stride, source);
    read_array(j, "pressure", c.pressure, source);
    read_array(j, "data", c.data, source);
    read_array(j, "layout", c.layout, source);
    CoverageSet s;
    UnitCoverage& u = s.units["vertex_fetch"];
    u.runs = 1;
    add_named(c, u);
    user_and_excluded(r, u, source);
    return s;
}

// Ordered, so the bins keep the order the file has them in.
CoverageSet from_file_json(const nlohmann::ordered_json& j, const std::string& source) {
    CoverageSet s;
    if (!j.contains("units") || !j["units"].is_object())
        throw CoverageFileError(source + ": /units: expected an object UNIT: {runs, bins, excluded}");
    for (const auto& item : j["units"].items()) {
        const std::string p = "/units/" + printable(item.key(), 60);
        const auto& v = item.value();
        if (!v.is_object() || !v.contains("runs") || !v["runs"].is_number_unsigned() || !v.contains("bins") || !v["bins"].is_object())
            throw CoverageFileError(fmt::format("{}: {}: expected {{\"runs\": N, \"bins\": {{BIN: hits}}}}", source, p));
        UnitCoverage& u = s.units[item.key()];
        u.runs = v["runs"].get<uint64_t>();
        for (const auto& b : v["bins"].items()) {
            if (!b.value().is_number_unsigned())
                throw CoverageFileError(fmt::format("{}: {}/bins/{}: a count is a non-negative integer", source, p, printable(b.key(), 60)));
            u.add_bin(b.key(), b.value().get<uint64_t>());
        }
        if (v.contains("excluded")) {
            if (!v["excluded"].is_object()) throw CoverageFileError(fmt::format("{}: {}/excluded: expected an object", source, p));
            for (const auto& e : v["excluded"].items()) {
                const auto& x = e.value();
                if (!x.is_object() || !x.contains("runs") || !x["runs"].is_number_unsigned() || x["runs"].get<uint64_t>() > u.runs)
                    throw CoverageFileError(fmt::format("{}: {}/excluded/{}: expected {{\"runs\": N <= the unit's runs, \"reason\": TEXT}}",
                                                        source, p, printable(e.key(), 60)));
                u.excluded[e.key()] = {x["runs"].get<uint64_t>(), x.value("reason", "")};
            }
        }
    }
    return s;
}

}  // namespace

void UnitCoverage::add_bin(const std::string& bin, uint64_t n) {
    auto it = hits.find(bin);
    if (it == hits.end()) {
        order.push_back(bin);
        hits.emplace(bin, n);
    } else {
        it->second += n;
    }
}

void UnitCoverage::add(const UnitCoverage& o) {
    runs += o.runs;
    for (const auto& b : o.order) add_bin(b, o.hits.at(b));
    for (const auto& [bin, e] : o.excluded) {
        auto& x = excluded[bin];
        if (!x.first) x.second = e.second;
        x.first += e.first;
    }
}

std::vector<std::string> UnitCoverage::holes() const {
    std::vector<std::string> h;
    for (const auto& b : order) {
        if (hits.at(b)) continue;
        const auto e = excluded.find(b);
        if (e != excluded.end() && e->second.first >= runs) continue;
        h.push_back(b);
    }
    return h;
}

void CoverageSet::add(const CoverageSet& o) {
    for (const auto& [unit, u] : o.units) units[unit].add(u);
}

nlohmann::ordered_json CoverageSet::to_json() const {
    nlohmann::ordered_json j;
    j["schema"] = "vpsim-coverage-1";
    j["units"] = nlohmann::ordered_json::object();
    for (const auto& [unit, u] : units) {
        nlohmann::ordered_json x, bins = nlohmann::ordered_json::object(), ex = nlohmann::ordered_json::object();
        for (const auto& b : u.order) bins[b] = u.hits.at(b);
        for (const auto& [bin, e] : u.excluded) ex[bin] = {{"runs", e.first}, {"reason", e.second}};
        size_t hit = 0;
        for (const auto& b : u.order) hit += u.hits.at(b) != 0;
        x["runs"] = u.runs;
        x["bins_total"] = u.order.size();
        x["bins_hit"] = hit;
        x["holes"] = u.holes();
        x["bins"] = bins;
        x["excluded"] = ex;
        j["units"][unit] = x;
    }
    return j;
}

CoverageSet coverage_of_xcheck(const json& r, const std::string& source) {
    if (!r.is_object() || !r.contains("coverage") || !r["coverage"].is_object())
        throw CoverageFileError(source + ": /coverage: missing (not an xcheck --json report with per-bin counts)");
    return r.value("unit", "decl_decoder") == "vertex_fetch" ? fetch_coverage(r, source) : decoder_coverage(r, source);
}

CoverageSet load_coverage(const std::string& path) {
    std::string text, why;
    if (!read_input_file(path, text, why)) throw CoverageFileError(path + ": " + why);
    json j;
    try {
        j = parse_json_file(text, path);
    } catch (const std::exception& e) {
        throw CoverageFileError(e.what());
    }
    if (j.is_object() && j.contains("schema")) {
        if (j["schema"] != "vpsim-coverage-1")
            throw CoverageFileError(path + ": /schema: expected \"vpsim-coverage-1\" (or an xcheck --json report)");
        return from_file_json(nlohmann::ordered_json::parse(text), path);
    }
    return coverage_of_xcheck(j, path);
}

}  // namespace vpsim::tb

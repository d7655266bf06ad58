#include "model/cli/decl_report.h"

#include "model/cli/vertex_format.h"

#include <fmt/format.h>

#include <cmath>

namespace vpsim::cli {

using json = nlohmann::ordered_json;

namespace {
// A float as JSON: a number when finite, else the strings "inf", "-inf", "nan".
json float_json(uint32_t bits) {
    const float f = decl::bits_float(bits);
    if (std::isnan(f)) return "nan";
    if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
    return f;
}
std::string reg_comment(uint32_t reg) {
    const char* n = decl::vertex_element_name(reg);
    return n ? fmt::format(" ({} in fixed function)", n) : "";
}
}  // namespace

json diagnostic_json(const decl::Diagnostic& d) {
    json j;
    j["severity"] = d.severity == decl::Severity::Error ? "error" : "warning";
    j["rule"] = decl::rule_id(d.rule);
    j["rule_name"] = decl::rule_name(d.rule);
    j["index"] = d.index;
    j["token"] = d.has_token ? json(fmt::format("0x{:08X}", d.token)) : json(nullptr);
    j["message"] = d.message;
    return j;
}

json declaration_json(const decl::Declaration& d) {
    json j;
    j["valid"] = d.valid;
    j["length"] = d.length;
    j["diagnostics"] = json::array();
    for (const auto& x : d.diagnostics) j["diagnostics"].push_back(diagnostic_json(x));
    j["streams"] = json::array();
    for (const auto& s : d.streams) {
        json js;
        js["stream"] = s.stream;
        js["tess"] = s.tess;
        js["size"] = s.size;
        js["elements"] = json::array();
        for (const auto& e : s.elements)
            js["elements"].push_back({{"register", e.reg},
                                      {"type", decl::data_type_name(e.type)},
                                      {"offset", e.offset},
                                      {"size", e.size}});
        js["skips"] = json::array();
        for (const auto& k : s.skips) js["skips"].push_back({{"offset", k.offset}, {"dwords", k.dwords}});
        j["streams"].push_back(js);
    }
    j["tess"] = json::array();
    for (const auto& t : d.tess) {
        json jt{{"kind", t.kind == decl::TessKind::UV ? "uv" : "normal"}, {"register", t.reg}};
        jt["input"] = t.kind == decl::TessKind::Normal ? json(t.input) : json(nullptr);
        j["tess"].push_back(jt);
    }
    j["constants"] = json::array();
    for (const auto& c : d.constants) {
        json v = json::array(), bits = json::array();
        for (uint32_t b : c.bits) {
            v.push_back(float_json(b));
            bits.push_back(fmt::format("0x{:08X}", b));
        }
        j["constants"].push_back({{"register", c.reg}, {"value", v}, {"bits", bits}});
    }
    j["events"] = json::array();
    for (size_t i = 0; i < d.events.size(); ++i) {
        const auto& e = d.events[i];
        json je{{"index", d.event_index[i]}, {"kind", decl::event_kind_name(e.kind)}, {"stream", e.stream},
                {"value", e.value}, {"code", e.code}, {"reg", e.reg}};
        if (e.kind == decl::EventKind::Const) je["data"] = e.data;
        j["events"].push_back(je);
    }
    j["loaded"] = json::array();
    for (uint32_t r = 0; r <= 16; ++r)
        if (d.loads(r)) j["loaded"].push_back(r);
    return j;
}

std::string declaration_text(const decl::Declaration& d) {
    std::string s;
    for (const auto& st : d.streams) {
        if (st.tess) {
            s += "tessellator stream\n";
            continue;
        }
        s += fmt::format("stream {}: {} bytes per vertex (declared)\n", st.stream, st.size);
        // Elements and skips in offset order, as they lie in memory.
        size_t ei = 0, ki = 0;
        while (ei < st.elements.size() || ki < st.skips.size()) {
            const bool el = ki >= st.skips.size() ||
                            (ei < st.elements.size() && st.elements[ei].offset <= st.skips[ki].offset);
            if (el) {
                const auto& e = st.elements[ei++];
                s += fmt::format("  offset {:>4}  v{:<2} {:<8} {:>2} bytes{}\n", e.offset, e.reg,
                                 decl::data_type_name(e.type), e.size, reg_comment(e.reg));
            } else {
                const auto& k = st.skips[ki++];
                s += fmt::format("  offset {:>4}  skip {} DWORD{} ({} bytes)\n", k.offset, k.dwords,
                                 k.dwords == 1 ? "" : "s", 4 * k.dwords);
            }
        }
    }
    for (const auto& t : d.tess) {
        if (t.kind == decl::TessKind::UV)
            s += fmt::format("  v{:<2} <- tessellator (u, v, 0, 1)\n", t.reg);
        else
            s += fmt::format("  v{:<2} <- tessellator normal of the surface of v{}\n", t.reg, t.input);
    }
    for (const auto& c : d.constants)
        s += fmt::format("constant c{:<3} = {}\n", c.reg,
                         vec_text({decl::bits_float(c.bits[0]), decl::bits_float(c.bits[1]),
                                   decl::bits_float(c.bits[2]), decl::bits_float(c.bits[3])}));
    std::string loaded;
    for (uint32_t r = 0; r <= 16; ++r)
        if (d.loads(r)) loaded += fmt::format("{}v{}", loaded.empty() ? "" : " ", r);
    s += fmt::format("registers loaded: {}\n", loaded.empty() ? "none" : loaded);
    for (const auto& x : d.diagnostics) s += decl::to_string(x) + "\n";
    return s;
}

}  // namespace vpsim::cli

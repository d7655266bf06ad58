#include "model/rtl/verilator_xml.h"

#include <fmt/format.h>

#include <cctype>
#include <cerrno>
#include <cstdlib>
#include <stdexcept>

namespace vpsim::rtl {

namespace {

// The attributes of one XML start tag, entities decoded.
std::map<std::string, std::string> attributes(const std::string& tag) {
    std::map<std::string, std::string> a;
    size_t i = 0;
    while (i < tag.size()) {
        const size_t eq = tag.find("=\"", i);
        if (eq == std::string::npos) break;
        size_t ns = eq;
        while (ns > 0 && !std::isspace(static_cast<unsigned char>(tag[ns - 1]))) --ns;
        const size_t end = tag.find('"', eq + 2);
        if (end == std::string::npos) break;
        std::string v = tag.substr(eq + 2, end - eq - 2), d;
        for (size_t k = 0; k < v.size(); ++k) {
            if (v[k] == '&') {
                const size_t sc = v.find(';', k);
                const std::string ent = sc == std::string::npos ? "" : v.substr(k + 1, sc - k - 1);
                const char* rep = ent == "lt" ? "<" : ent == "gt" ? ">" : ent == "amp" ? "&" : ent == "quot" ? "\"" : ent == "apos" ? "'" : nullptr;
                if (rep) {
                    d += rep;
                    k = sc;
                    continue;
                }
            }
            d += v[k];
        }
        a[tag.substr(ns, eq - ns)] = d;
        i = end + 1;
    }
    return a;
}

// Every start tag named `name` in [from, to).
std::vector<std::string> tags(const std::string& xml, const std::string& name, size_t from = 0,
                              size_t to = std::string::npos) {
    std::vector<std::string> out;
    const std::string open = "<" + name + " ";
    for (size_t i = xml.find(open, from); i != std::string::npos && i < to; i = xml.find(open, i + 1)) {
        const size_t e = xml.find('>', i);
        if (e == std::string::npos) break;
        out.push_back(xml.substr(i + open.size(), e - i - open.size()));
    }
    return out;
}

}  // namespace

XmlTop parse_verilator_xml(const std::string& xml) {
    XmlTop t;
    const auto cells = tags(xml, "cell");
    if (cells.empty()) throw std::runtime_error("Verilator's XML output names no top module");
    t.top = attributes(cells.front())["submodname"];
    std::map<std::string, std::string> files;  // id -> file name
    for (const auto& f : tags(xml, "file")) {
        auto a = attributes(f);
        files[a["id"]] = a["filename"];
    }
    std::map<std::string, int> widths;  // dtype id -> width (basic types only)
    for (const auto& b : tags(xml, "basicdtype")) {
        auto a = attributes(b);
        if (a.count("left") && a.count("right"))
            widths[a["id"]] = std::abs(std::atoi(a["left"].c_str()) - std::atoi(a["right"].c_str())) + 1;
        else if (a["name"] == "logic" || a["name"] == "bit" || a["name"] == "reg" || a["name"] == "wire")
            widths[a["id"]] = 1;
    }
    // The top module's own section of the netlist.
    size_t m = std::string::npos;
    for (size_t i = xml.find("<module "); i != std::string::npos; i = xml.find("<module ", i + 1)) {
        const size_t e = xml.find('>', i);
        if (attributes(xml.substr(i + 8, e - i - 8))["name"] == t.top) {
            m = i;
            break;
        }
    }
    if (m == std::string::npos) throw std::runtime_error("Verilator's XML output has no module " + t.top);
    const size_t mend = xml.find("</module>", m);
    for (const auto& v : tags(xml, "var", m, mend)) {
        auto a = attributes(v);
        if (a["param"] == "true") t.params.push_back(a["name"]);
        if (!a.count("dir") || !a.count("pinIndex")) continue;  // ports only (not function arguments)
        PortInfo p;
        p.name = a["name"];
        p.dir = a["dir"];
        auto w = widths.find(a["dtype_id"]);
        p.width = w == widths.end() ? 0 : w->second;
        // loc="c,38,26,38,29": file id, first line, ...
        const std::string loc = a["loc"];
        const size_t c1 = loc.find(','), c2 = loc.find(',', c1 + 1);
        if (c1 != std::string::npos && c2 != std::string::npos)
            p.where = fmt::format("{}:{}", files[loc.substr(0, c1)], loc.substr(c1 + 1, c2 - c1 - 1));
        t.ports.push_back(p);
    }
    return t;
}

// The value of a parameter in the XML (`<var ... param="true"><const name="32'h64"/>`).
std::map<std::string, std::string> verilator_param_values(const std::string& xml, const std::string& top) {
    std::map<std::string, std::string> out;
    size_t m = std::string::npos;
    for (size_t i = xml.find("<module "); i != std::string::npos; i = xml.find("<module ", i + 1)) {
        const size_t e = xml.find('>', i);
        if (attributes(xml.substr(i + 8, e - i - 8))["name"] == top) {
            m = i;
            break;
        }
    }
    if (m == std::string::npos) return out;
    const size_t mend = xml.find("</module>", m);
    for (size_t i = xml.find("<var ", m); i != std::string::npos && i < mend; i = xml.find("<var ", i + 1)) {
        const size_t e = xml.find('>', i);
        auto a = attributes(xml.substr(i + 5, e - i - 5));
        if (a["param"] != "true" || xml[e - 1] == '/') continue;
        const size_t c = xml.find("<const ", e);
        if (c == std::string::npos || c > xml.find("</var>", e)) continue;
        const std::string lit = attributes(xml.substr(c + 7, xml.find('>', c) - c - 7))["name"];
        // 32'h64, 32'sh1000, 32'd5, 4'b1010
        const size_t q = lit.find('\'');
        if (q == std::string::npos) continue;
        size_t k = q + 1;
        if (k < lit.size() && (lit[k] == 's' || lit[k] == 'S')) ++k;
        if (k >= lit.size()) continue;
        const int base = lit[k] == 'h' ? 16 : lit[k] == 'd' ? 10 : lit[k] == 'o' ? 8 : lit[k] == 'b' ? 2 : 0;
        if (!base) continue;
        errno = 0;
        char* endp = nullptr;
        const unsigned long long v = std::strtoull(lit.c_str() + k + 1, &endp, base);
        if (errno == 0 && endp && *endp == '\0') out[a["name"]] = std::to_string(v);
    }
    return out;
}

}  // namespace vpsim::rtl

// The D3D8 declaration of a D3D9 vs_1_1 source (see vs_d3d9.h).
#include "model/vs/vs_d3d9.h"

#include "model/decl/decl_text.h"
#include "model/decl/decl_tokens.h"

#include <fmt/format.h>

#include <algorithm>
#include <stdexcept>

namespace vpsim::vs {

uint32_t default_dcl_type(const InputDcl& d) {
    const uint32_t m = d.mask & 0xFu;
    const int n = (m & 1) + (m >> 1 & 1) + (m >> 2 & 1) + (m >> 3 & 1);
    if (m != 0xFu && n >= 1) return decl::D3DVSDT_FLOAT1 + uint32_t(n - 1);
    const std::string& u = d.usage;
    if (u == "position" || u == "normal" || u == "tangent" || u == "binormal") return decl::D3DVSDT_FLOAT3;
    if (u == "texcoord") return decl::D3DVSDT_FLOAT2;
    if (u == "psize" || u == "fog" || u == "depth" || u == "tessfactor") return decl::D3DVSDT_FLOAT1;
    return decl::D3DVSDT_FLOAT4;
}

namespace {

// The D3DVSDE_ register D3D8's fixed function uses for this usage, or -1.
int vertex_element(const InputDcl& d) {
    const std::string& u = d.usage;
    if (u == "position" && d.index <= 1) return d.index ? decl::D3DVSDE_POSITION2 : decl::D3DVSDE_POSITION;
    if (u == "normal" && d.index <= 1) return d.index ? decl::D3DVSDE_NORMAL2 : decl::D3DVSDE_NORMAL;
    if (u == "blendweight" && d.index == 0) return decl::D3DVSDE_BLENDWEIGHT;
    if (u == "blendindices" && d.index == 0) return decl::D3DVSDE_BLENDINDICES;
    if (u == "psize" && d.index == 0) return decl::D3DVSDE_PSIZE;
    if (u == "color" && d.index <= 1) return d.index ? decl::D3DVSDE_SPECULAR : decl::D3DVSDE_DIFFUSE;
    if (u == "texcoord" && d.index <= 7) return int(decl::D3DVSDE_TEXCOORD0 + d.index);
    return -1;
}

}  // namespace

D3D9Declaration d3d8_declaration(const AsmResult& r, const std::vector<std::string>& dcl_types,
                                 const std::string& source_name) {
    // Overrides: "usage=TYPE" (every index) or "usageN=TYPE" (one; wins over the former).
    struct Override {
        std::string usage;
        int index;  // -1: every index
        uint32_t type;
        std::string text;  // as given
        bool used = false;
    };
    std::vector<Override> overrides;
    for (const std::string& kv : dcl_types) {
        const size_t eq = kv.find('=');
        auto bad = [&](const std::string& why) {
            return std::invalid_argument(fmt::format("--dcl-type {}: {}", kv, why));
        };
        if (eq == std::string::npos) throw bad("expected USAGE[N]=TYPE, e.g. texcoord0=SHORT2");
        std::string usage = kv.substr(0, eq);
        for (char& c : usage) c = char(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
        if (usage.rfind("dcl_", 0) == 0) usage.erase(0, 4);
        size_t d = usage.size();
        while (d > 0 && usage[d - 1] >= '0' && usage[d - 1] <= '9') --d;
        const std::string digits = usage.substr(d);
        usage.resize(d);
        const auto& names = dcl_usages();
        if (std::find(names.begin(), names.end(), usage) == names.end()) throw bad("'" + usage + "' is not a D3DDECLUSAGE name");
        if (digits.size() > 2) throw bad("usage index " + digits + " is out of range");
        const auto type = decl::data_type_from_name(kv.substr(eq + 1));
        if (!type)
            throw bad("'" + kv.substr(eq + 1) + "' is not a D3D8 data type (FLOAT1..FLOAT4, D3DCOLOR, UBYTE4, SHORT2, SHORT4)");
        overrides.push_back({usage, digits.empty() ? -1 : int(std::stoul(digits)), *type, kv});
    }

    D3D9Declaration out;
    out.tokens.push_back(decl::D3DVSD_STREAM(0));
    std::string comments = fmt::format("// The D3D8 declaration of {} (vpsim asm --d3d9): stream 0 holds the dcl_ inputs, packed\n",
                                       source_name);
    uint32_t offset = 0;
    for (const InputDcl& d : r.dcls) {
        uint32_t type = default_dcl_type(d);
        const char* how = "default";
        for (int pass = 0; pass < 2; ++pass)  // every-index overrides first, so a one-index one wins
            for (Override& o : overrides)
                if (o.usage == d.usage && (pass == 0 ? o.index < 0 : o.index == int(d.index))) {
                    type = o.type;
                    o.used = true;
                    how = "--dcl-type";
                }
        out.tokens.push_back(decl::D3DVSD_REG(d.reg, type));
        const int ve = vertex_element(d);
        comments += fmt::format("//   v{} dcl_{}{}: D3DVSDT_{} ({}), offset {}{}\n", d.reg, d.usage, d.index,
                                decl::data_type_name(type), how, offset,
                                ve < 0 ? "" : ve == int(d.reg) ? fmt::format(", = D3DVSDE_{}", decl::vertex_element_name(uint32_t(ve)))
                                                               : fmt::format(" (D3D8's fixed function would use D3DVSDE_{} = v{})",
                                                                             decl::vertex_element_name(uint32_t(ve)), ve));
        offset += decl::data_type_size(type);
    }
    for (const Override& o : overrides)
        if (!o.used)
            throw std::invalid_argument(fmt::format("--dcl-type {}: the shader has no dcl_{}{} line", o.text, o.usage,
                                                    o.index < 0 ? "" : std::to_string(o.index)));
    if (!r.defs.empty()) comments += fmt::format("// then the shader's {} def(s) as D3DVSD_CONST tokens\n", r.defs.size());
    out.tokens.insert(out.tokens.end(), r.const_tokens.begin(), r.const_tokens.end());
    out.tokens.push_back(decl::D3DVSD_END());
    out.text = comments + decl::to_text(out.tokens);
    return out;
}

}  // namespace vpsim::vs

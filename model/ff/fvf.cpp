#include "model/ff/fvf.h"

#include "model/decl/decl_tokens.h"

#include <fmt/format.h>

#include <cctype>

namespace vpsim::ff {

FvfError::FvfError(std::string rule_, const std::string& message)
    : std::runtime_error(fmt::format("FVF {}: {}", rule_, message)), rule(std::move(rule_)) {}

namespace {

struct Named {
    const char* name;  // without D3DFVF_
    uint32_t value;
};
constexpr Named kPositions[] = {{"XYZ", kFvfXyz},     {"XYZRHW", kFvfXyzrhw}, {"XYZB1", kFvfXyzb1},
                                {"XYZB2", kFvfXyzb2}, {"XYZB3", kFvfXyzb3},   {"XYZB4", kFvfXyzb4},
                                {"XYZB5", kFvfXyzb5}};
constexpr Named kFlags[] = {{"NORMAL", kFvfNormal},
                            {"PSIZE", kFvfPSize},
                            {"DIFFUSE", kFvfDiffuse},
                            {"SPECULAR", kFvfSpecular},
                            {"LASTBETA_UBYTE4", kFvfLastBetaUByte4}};

const char* kNames =
    "D3DFVF_XYZ, XYZRHW, XYZB1..XYZB5, NORMAL, PSIZE, DIFFUSE, SPECULAR, TEX0..TEX8, LASTBETA_UBYTE4, "
    "TEXCOORDSIZE1..4(0..7) (the D3DFVF_ prefix optional), or a number";

std::string trim(std::string_view s) {
    size_t a = 0, b = s.size();
    while (a < b && std::isspace(static_cast<unsigned char>(s[a]))) ++a;
    while (b > a && std::isspace(static_cast<unsigned char>(s[b - 1]))) --b;
    return std::string(s.substr(a, b - a));
}

bool parse_number(const std::string& t, uint32_t& out) {
    if (t.empty()) return false;
    std::string digits = t;
    int base = 10;
    if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) digits = t.substr(2), base = 16;
    const char* allowed = base == 16 ? "0123456789abcdefABCDEF" : "0123456789";
    if (digits.empty() || digits.size() > (base == 16 ? 8u : 10u) ||
        digits.find_first_not_of(allowed) != std::string::npos)
        return false;
    const unsigned long long v = std::stoull(digits, nullptr, base);
    if (v > 0xFFFFFFFFull) return false;
    out = uint32_t(v);
    return true;
}

// Accumulates terms, refusing names that would silently combine.
class Builder {
public:
    void term(const std::string& raw) {
        const std::string t = trim(raw);
        if (t.empty()) throw FvfError("syntax", fmt::format("an empty term: expected {}", kNames));
        uint32_t num = 0;
        if (parse_number(t, num)) {
            if ((num & kFvfPositionMask) && (fvf_ & kFvfPositionMask))
                throw FvfError("twice", fmt::format("two position types (0x{:X} and 0x{:X})", fvf_ & kFvfPositionMask,
                                                    num & kFvfPositionMask));
            if ((num & kFvfTexCountMask) && (fvf_ & kFvfTexCountMask))
                throw FvfError("twice", fmt::format("two texture counts (0x{:X} and 0x{:X})", fvf_ & kFvfTexCountMask,
                                                    num & kFvfTexCountMask));
            fvf_ |= num;
            return;
        }
        std::string u;
        for (char c : t) u += char(std::toupper(static_cast<unsigned char>(c)));
        if (u.rfind("D3DFVF_", 0) == 0) u = u.substr(7);
        for (const auto& p : kPositions)
            if (u == p.name) {
                if (fvf_ & kFvfPositionMask)
                    throw FvfError("twice", fmt::format("two position types, D3DFVF_{} and {}",
                                                        !position_.empty() ? position_ : fmt::format("0x{:X}", fvf_ & kFvfPositionMask), t));
                position_ = p.name;
                fvf_ |= p.value;
                return;
            }
        for (const auto& f : kFlags)
            if (u == f.name) {
                if (fvf_ & f.value && named_ & f.value)
                    throw FvfError("twice", fmt::format("D3DFVF_{} is given twice", f.name));
                named_ |= f.value;
                fvf_ |= f.value;
                return;
            }
        if (u.size() == 4 && u.rfind("TEX", 0) == 0 && std::isdigit(static_cast<unsigned char>(u[3]))) {
            const uint32_t n = uint32_t(u[3] - '0');
            if (n > 8) throw FvfError("tex-count", fmt::format("{}: D3D8 has D3DFVF_TEX0..TEX8", t));
            if (fvf_ & kFvfTexCountMask)
                throw FvfError("twice", fmt::format("two texture counts, D3DFVF_TEX{} and {}",
                                                    (fvf_ & kFvfTexCountMask) >> kFvfTexCountShift, t));
            fvf_ |= n << kFvfTexCountShift;
            return;
        }
        // TEXCOORDSIZEn(i)
        if (u.rfind("TEXCOORDSIZE", 0) == 0) {
            const std::string rest = u.substr(12);
            const size_t open = rest.find('('), close = rest.rfind(')');
            std::string n = open == std::string::npos ? "" : trim(rest.substr(0, open));
            std::string i = open == std::string::npos || close == std::string::npos || close < open
                                ? ""
                                : trim(rest.substr(open + 1, close - open - 1));
            if (close != std::string::npos && close + 1 != rest.size()) i.clear();
            if (n.size() != 1 || n[0] < '1' || n[0] > '4' || i.size() != 1 || i[0] < '0' || i[0] > '7')
                throw FvfError("syntax", fmt::format("\"{}\": expected D3DFVF_TEXCOORDSIZE1..4(0..7)", t));
            const uint32_t set = uint32_t(i[0] - '0');
            if (sized_ >> set & 1u)
                throw FvfError("twice", fmt::format("two sizes for texture coordinate set {}", set));
            sized_ |= 1u << set;
            fvf_ |= fvf_texcoordsize(uint32_t(n[0] - '0'), set);
            return;
        }
        throw FvfError("syntax", fmt::format("unknown name \"{}\": expected {}", t, kNames));
    }
    uint32_t value() const { return fvf_; }

private:
    uint32_t fvf_ = 0;
    std::string position_;
    uint32_t named_ = 0;
    uint32_t sized_ = 0;
};

void split_terms(Builder& b, std::string_view text) {
    size_t pos = 0;
    while (true) {
        const size_t bar = text.find('|', pos);
        b.term(std::string(text.substr(pos, bar == std::string_view::npos ? std::string_view::npos : bar - pos)));
        if (bar == std::string_view::npos) break;
        pos = bar + 1;
    }
}

uint32_t components(uint32_t type) {
    switch (type) {
    case decl::D3DVSDT_FLOAT1: return 1;
    case decl::D3DVSDT_FLOAT2: return 2;
    case decl::D3DVSDT_FLOAT3: return 3;
    case decl::D3DVSDT_SHORT2: return 2;
    default: return 4;
    }
}

}  // namespace

uint32_t parse_fvf(std::string_view text) {
    Builder b;
    split_terms(b, text);
    validate_fvf(b.value());
    return b.value();
}

uint32_t parse_fvf(const std::vector<std::string>& terms) {
    if (terms.empty()) throw FvfError("syntax", fmt::format("an empty list: expected {}", kNames));
    Builder b;
    for (const auto& t : terms) split_terms(b, t);
    validate_fvf(b.value());
    return b.value();
}

void validate_fvf(uint32_t fvf) {
    if (fvf & (kFvfReserved0 | kFvfReserved2))
        throw FvfError("reserved-bits",
                       fmt::format("0x{:08X} sets reserved bits 0x{:X} (D3DFVF_RESERVED0 0x1, D3DFVF_RESERVED2 0xE000)",
                                   fvf, fvf & (kFvfReserved0 | kFvfReserved2)));
    const uint32_t pos = fvf & kFvfPositionMask;
    if (pos == 0)
        throw FvfError("no-position", fmt::format("0x{:08X} has no position (D3DFVF_XYZ, XYZRHW or XYZB1..XYZB5)", fvf));
    if (pos == kFvfXyzrhw && (fvf & kFvfNormal))
        throw FvfError("xyzrhw-normal",
                       fmt::format("0x{:08X}: D3DFVF_XYZRHW cannot be used with D3DFVF_NORMAL (a pre-transformed "
                                   "vertex is not lit)",
                                   fvf));
    if ((fvf & kFvfLastBetaUByte4) && (pos == kFvfXyz || pos == kFvfXyzrhw))
        throw FvfError("lastbeta-no-betas",
                       fmt::format("0x{:08X}: D3DFVF_LASTBETA_UBYTE4 needs a position with betas (XYZB1..XYZB5)", fvf));
    const uint32_t tex = (fvf & kFvfTexCountMask) >> kFvfTexCountShift;
    if (tex > 8)
        throw FvfError("tex-count", fmt::format("0x{:08X}: texture count {} (D3D8 has D3DFVF_TEX0..TEX8)", fvf, tex));
}

std::string fvf_to_string(uint32_t fvf) {
    std::string s;
    auto add = [&](const std::string& n) { s += (s.empty() ? "" : "|") + std::string("D3DFVF_") + n; };
    const uint32_t pos = fvf & kFvfPositionMask;
    for (const auto& p : kPositions)
        if (p.value == pos) add(p.name);
    for (const auto& f : kFlags)
        if (fvf & f.value) add(f.name);
    const uint32_t tex = (fvf & kFvfTexCountMask) >> kFvfTexCountShift;
    if (tex) add(fmt::format("TEX{}", tex));
    for (uint32_t i = 0; i < 8; ++i)
        if ((fvf >> (16 + 2 * i)) & 3u) add(fmt::format("TEXCOORDSIZE{}({})", fvf_texcoord_floats(fvf, i), i));
    const uint32_t rest = fvf & (kFvfReserved0 | kFvfReserved2);
    if (rest) s += fmt::format("{}0x{:X}", s.empty() ? "" : "|", rest);
    return s.empty() ? "0" : s;
}

FvfLayout fvf_layout(uint32_t fvf) {
    validate_fvf(fvf);
    using namespace decl;
    FvfLayout l;
    l.fvf = fvf;
    l.declaration.push_back(D3DVSD_STREAM(0));
    auto reg = [&](uint32_t r, uint32_t type) {
        FvfElement e{r, type, l.stride, data_type_size(type)};
        l.elements.push_back(e);
        l.declaration.push_back(D3DVSD_REG(r, type));
        l.stride += e.size;
        l.inputs.loaded |= 1u << r;
        l.inputs.components[r] = uint8_t(components(type));
    };
    const uint32_t pos = fvf & kFvfPositionMask;
    if (pos == kFvfXyzrhw) {
        reg(D3DVSDE_POSITION, D3DVSDT_FLOAT4);
        l.inputs.pretransformed = true;
    } else {
        reg(D3DVSDE_POSITION, D3DVSDT_FLOAT3);
    }
    if (pos >= kFvfXyzb1) {
        l.betas = (pos - kFvfXyzb1) / 2 + 1;
        l.indices = (fvf & kFvfLastBetaUByte4) != 0;
        const uint32_t floats = l.betas - (l.indices ? 1 : 0);
        l.weights = floats > 4 ? 4 : floats;
        if (l.weights) reg(D3DVSDE_BLENDWEIGHT, D3DVSDT_FLOAT1 + l.weights - 1);
        if (floats > 4) {  // XYZB5 without LASTBETA_UBYTE4: the fifth beta is skipped
            l.elements.push_back(FvfElement{kSkipElement, floats - 4, l.stride, 4 * (floats - 4)});
            l.declaration.push_back(D3DVSD_SKIP(floats - 4));
            l.stride += 4 * (floats - 4);
        }
        if (l.indices) reg(D3DVSDE_BLENDINDICES, D3DVSDT_UBYTE4);
    }
    if (fvf & kFvfNormal) reg(D3DVSDE_NORMAL, D3DVSDT_FLOAT3);
    if (fvf & kFvfPSize) reg(D3DVSDE_PSIZE, D3DVSDT_FLOAT1);
    if (fvf & kFvfDiffuse) reg(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR);
    if (fvf & kFvfSpecular) reg(D3DVSDE_SPECULAR, D3DVSDT_D3DCOLOR);
    l.tex_count = (fvf & kFvfTexCountMask) >> kFvfTexCountShift;
    for (uint32_t i = 0; i < l.tex_count; ++i)
        reg(D3DVSDE_TEXCOORD0 + i, D3DVSDT_FLOAT1 + fvf_texcoord_floats(fvf, i) - 1);
    l.declaration.push_back(D3DVSD_END());
    return l;
}

FfInputs declaration_inputs(const decl::Declaration& d) {
    FfInputs in;
    for (uint32_t r = 0; r < kNumDe; ++r) {
        if (!d.loads(r)) continue;
        in.loaded |= 1u << r;
        if (const decl::ElementDecl* e = d.last_element(r)) in.components[r] = uint8_t(components(e->type));
    }
    for (const auto& t : d.tess) {
        in.loaded |= 1u << t.reg;
        in.components[t.reg] = t.kind == decl::TessKind::Normal ? 3 : 2;
    }
    return in;
}

}  // namespace vpsim::ff

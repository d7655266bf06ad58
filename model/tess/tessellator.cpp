// The tessellator input stage (see tessellator.h and docs/tessellation.md).
#include "model/tess/tessellator.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

namespace vpsim::tess {

namespace {

bool order_known(Order o) {
    return o == Order::Linear || o == Order::Quadratic || o == Order::Cubic || o == Order::Quintic;
}
bool basis_known(Basis b) { return b == Basis::Bezier || b == Basis::BSpline || b == Basis::Interpolate; }

std::string describe(Basis b, Order o) {
    return fmt::format("basis {} ({}), order {} ({})", uint32_t(b), basis_name(b), uint32_t(o), order_name(o));
}

// What fills each input register, from the declaration's events in order (a later load wins).
struct RegPlan {
    enum Kind : uint8_t { None, Eval, UV, Normal } kind = None;
    uint32_t input = 0;
    uint32_t type = 0;  // Eval: the data type
};
// Components a data type really carries; the rest of the expansion is the constant (0, 0, 0, 1).
int type_components(uint32_t type) {
    switch (type) {
    case decl::D3DVSDT_FLOAT1: return 1;
    case decl::D3DVSDT_FLOAT2:
    case decl::D3DVSDT_SHORT2: return 2;
    case decl::D3DVSDT_FLOAT3: return 3;
    default: return 4;
    }
}
std::array<RegPlan, vs::kNumInputs> plan(const decl::Declaration& d) {
    std::array<RegPlan, vs::kNumInputs> p{};
    for (const decl::Event& e : d.events) {
        if (e.reg >= vs::kNumInputs) continue;
        if (e.kind == decl::EventKind::Element)
            p[e.reg] = {RegPlan::Eval, 0, e.code};
        else if (e.kind == decl::EventKind::Tess)
            p[e.reg] = {e.code ? RegPlan::Normal : RegPlan::UV, e.value, 0};
    }
    return p;
}

std::vector<std::string> add_unique(std::vector<std::string> v, const std::string& s) {
    if (!s.empty() && std::find(v.begin(), v.end(), s) == v.end()) v.push_back(s);
    return v;
}

// Fills the registers of every domain point; `sample(point, reg)` evaluates a register.
template <class Weights, class MakeWeights>
void fill(TessOutput& out, const decl::Declaration& d, const std::vector<Registers>& control, MakeWeights make,
          const TessProfile& profile) {
    const auto p = plan(d);
    const size_t nv = out.domain.points.size();
    out.vertices.assign(nv, Registers{});
    std::array<std::vector<NormalInput>, vs::kNumInputs> derivs;
    uint32_t need_derivs = 0;
    for (uint32_t r = 0; r < vs::kNumInputs; ++r)
        if (p[r].kind == RegPlan::Normal) need_derivs |= 1u << p[r].input;
    for (uint32_t r = 0; r < vs::kNumInputs; ++r)
        if (need_derivs >> r & 1u) derivs[r].resize(nv);

    for (size_t k = 0; k < nv; ++k) {
        const DomainPoint& pt = out.domain.points[k];
        const Weights w = make(pt);
        for (uint32_t r = 0; r < vs::kNumInputs; ++r) {
            if (p[r].kind != RegPlan::Eval && !(need_derivs >> r & 1u)) continue;
            const SurfaceSample s = evaluate(w, ControlView{control.data()->data() + r, vs::kNumInputs});
            if (p[r].kind == RegPlan::Eval) {
                out.vertices[k][r] = s.value;
                if (!profile.interpolate_constant_components)
                    for (int c = type_components(p[r].type); c < 4; ++c) out.vertices[k][r][c] = c == 3 ? 1.0f : 0.0f;
            }
            if (need_derivs >> r & 1u) derivs[r][k] = {s.du, s.dv};
        }
        for (uint32_t r = 0; r < vs::kNumInputs; ++r)
            if (p[r].kind == RegPlan::UV) out.vertices[k][r] = {pt.u, pt.v, 0.0f, 1.0f};
    }
    for (uint32_t r = 0; r < vs::kNumInputs; ++r) {
        if (p[r].kind != RegPlan::Normal) continue;
        uint32_t degenerate = 0;
        const std::vector<Vec4> n = tess_normals(derivs[p[r].input], out.domain.points, profile, &degenerate);
        out.degenerate_normals += degenerate;
        for (size_t k = 0; k < nv; ++k) out.vertices[k][r] = n[k];
    }
}

}  // namespace

namespace {
// The segment count of every edge (rect: per span times the spans), with the warnings.
std::array<uint32_t, 4> rect_counts(const RectPatchInfo& info, const float* segs, const PatchState& state,
                                    const TessProfile& profile, std::vector<std::string>* warnings, bool* approximated) {
    const uint32_t deg = uint32_t(info.order);
    const uint32_t su = span_count(info.basis, deg, info.width), sv = span_count(info.basis, deg, info.height);
    std::array<uint32_t, 4> n{};
    for (int e = 0; e < 4; ++e) {
        std::string warning;
        const uint32_t per_span =
            segment_count(segs ? segs[e] : state.patch_segments, state.edge_style, profile, &warning, approximated);
        if (warnings) *warnings = add_unique(*warnings, warning);
        n[e] = uint32_t(std::min<uint64_t>(uint64_t(per_span) * (e % 2 == 0 ? su : sv), 0xFFFFFFFFu));
    }
    return n;
}

std::array<uint32_t, 3> tri_counts(const float* segs, const PatchState& state, const TessProfile& profile,
                                   std::vector<std::string>* warnings, bool* approximated) {
    std::array<uint32_t, 3> n{};
    for (int e = 0; e < 3; ++e) {
        std::string warning;
        n[e] = segment_count(segs ? segs[e] : state.patch_segments, state.edge_style, profile, &warning, approximated);
        if (warnings) *warnings = add_unique(*warnings, warning);
    }
    return n;
}
}  // namespace

void check_output_limit(const RectPatchInfo& info, const float* segs, const PatchState& state,
                        const TessProfile& profile) {
    bool approximated = false;
    const auto e = effective_rect_counts(rect_counts(info, segs, state, profile, nullptr, &approximated), profile);
    const uint64_t nu = std::max(e[0], e[2]), nv = std::max(e[1], e[3]);
    check_vertex_limit((nu + 1) * (nv + 1) + e[0] + e[1] + e[2] + e[3], "rect patch", profile);
}

void check_output_limit(const TriPatchInfo&, const float* segs, const PatchState& state, const TessProfile& profile) {
    bool approximated = false;
    const auto e = effective_tri_counts(tri_counts(segs, state, profile, nullptr, &approximated), profile);
    const uint64_t m = std::max({e[0], e[1], e[2]});
    check_vertex_limit((m + 1) * (m + 2) / 2 + e[0] + e[1] + e[2], "tri patch", profile);
}

void check_vertex_limit(uint64_t vertices, const char* what, const TessProfile& profile) {
    if (vertices > profile.max_vertices)
        throw TessError("T13", fmt::format("the {} would generate up to {} vertices, more than the limit {} "
                                           "(--tess-profile max-vertices=N raises it; memory grows with it)",
                                           what, vertices, profile.max_vertices));
}

void validate(const RectPatchInfo& info, const TessProfile& profile) {
    const uint32_t o = uint32_t(info.order);
    if (!basis_known(info.basis) || !order_known(info.order) || info.order == Order::Quadratic ||
        (info.basis == Basis::Interpolate && info.order != Order::Cubic))
        throw TessError("T1", fmt::format("rect patch {} is not allowed: BEZIER and BSPLINE take LINEAR, CUBIC or "
                                          "QUINTIC, INTERPOLATE takes CUBIC only",
                                          describe(info.basis, info.order)));
    if (info.order == Order::Quintic && !profile.quintic_cap)
        throw TessError("T3", "QUINTIC patch, but the device profile has no D3DDEVCAPS_QUINTICRTPATCHES");
    const bool ok = info.basis == Basis::Bezier ? info.width == o + 1 && info.height == o + 1
                                                : info.width > o && info.height > o;
    if (!ok)
        throw TessError("T2", fmt::format("rect patch {}x{} is not allowed for {}: expected {}", info.width, info.height,
                                          describe(info.basis, info.order),
                                          info.basis == Basis::Bezier ? fmt::format("{0}x{0}", o + 1)
                                                                      : fmt::format("width and height > {}", o)));
    if (uint64_t(info.width) * info.height > kMaxControlPoints)
        throw TessError("T13", fmt::format("rect patch {}x{} has {} control points, more than the limit {} (256x256)",
                                           info.width, info.height, uint64_t(info.width) * info.height,
                                           kMaxControlPoints));
    if (uint64_t(info.start_vertex_offset_width) + info.width > info.stride)
        throw TessError("T2", fmt::format("StartVertexOffsetWidth {} + Width {} is more than Stride {}",
                                          info.start_vertex_offset_width, info.width, info.stride));
}

void validate(const TriPatchInfo& info, const TessProfile& profile) {
    if (info.basis != Basis::Bezier || !order_known(info.order) || info.order == Order::Quadratic)
        throw TessError("T1", fmt::format("tri patch {} is not allowed: tri patches are BEZIER with LINEAR, CUBIC or "
                                          "QUINTIC order",
                                          describe(info.basis, info.order)));
    if (info.order == Order::Quintic && !profile.quintic_cap)
        throw TessError("T3", "QUINTIC patch, but the device profile has no D3DDEVCAPS_QUINTICRTPATCHES");
    const uint32_t need = tri_point_count(uint32_t(info.order));
    if (info.num_vertices != need)
        throw TessError("T5", fmt::format("tri patch NumVertices {} does not match order {}: expected {}",
                                          info.num_vertices, order_name(info.order), need));
}

void validate_declaration(const decl::Declaration& d, bool tri_patch, const TessProfile& profile) {
    if (!d.valid) {
        std::string first;
        for (const auto& x : d.diagnostics)
            if (x.severity == decl::Severity::Error) {
                first = decl::to_string(x);
                break;
            }
        throw TessError("T11", "the declaration has errors, nothing is drawn" + (first.empty() ? "" : ": " + first));
    }
    const auto p = plan(d);
    for (uint32_t r = 0; r < vs::kNumInputs; ++r) {
        if (p[r].kind == RegPlan::Normal &&
            (p[r].input >= vs::kNumInputs || p[p[r].input].kind != RegPlan::Eval || !(d.memory_mask >> p[r].input & 1u)))
            throw TessError("T9", fmt::format("TESSNORMAL v{} <- v{}: v{} is not loaded from a memory stream", r,
                                              p[r].input, p[r].input));
        if (tri_patch && p[r].kind == RegPlan::UV && !profile.tessuv_on_tri)
            throw TessError("T10", fmt::format("TESSUV v{} in a tri patch draw, which the profile does not allow", r));
    }
}

std::vector<uint32_t> control_indices(const RectPatchInfo& info) {
    std::vector<uint32_t> idx;
    idx.reserve(size_t(info.width) * info.height);
    for (uint32_t r = 0; r < info.height; ++r)
        for (uint32_t c = 0; c < info.width; ++c) {
            const uint64_t v = (uint64_t(info.start_vertex_offset_height) + r) * info.stride +
                               info.start_vertex_offset_width + c;
            if (v > 0xFFFFFFFFull)
                throw TessError("T4", fmt::format("control point (row {}, column {}) is vertex {}, past 0xFFFFFFFF", r,
                                                  c, v));
            idx.push_back(uint32_t(v));
        }
    return idx;
}

std::vector<uint32_t> control_indices(const TriPatchInfo& info) {
    std::vector<uint32_t> idx;
    for (uint32_t k = 0; k < info.num_vertices; ++k) {
        const uint64_t v = uint64_t(info.start_vertex_offset) + k;
        if (v > 0xFFFFFFFFull)
            throw TessError("T4", fmt::format("control point {} is vertex {}, past 0xFFFFFFFF", k, v));
        idx.push_back(uint32_t(v));
    }
    return idx;
}

std::vector<Registers> fetch_control_points(const decl::Declaration& d, const vs::Streams& streams,
                                            const std::vector<uint32_t>& indices) {
    std::vector<Registers> out;
    out.reserve(indices.size());
    try {
        vs::check_streams(d, streams);
        for (size_t k = 0; k < indices.size(); ++k) out.push_back(vs::fetch_vertex(d, streams, indices[k]));
    } catch (const vs::FetchError& e) {
        throw TessError("T4", fmt::format("control point {} of the patch is outside the bound buffers: {}",
                                          out.size(), e.what()));
    }
    return out;
}

std::vector<Vec4> tess_normals(const std::vector<NormalInput>& in, const std::vector<DomainPoint>& points,
                               const TessProfile& profile, uint32_t* degenerate) {
    const size_t n = in.size();
    std::vector<std::array<double, 3>> raw(n);
    std::vector<bool> bad(n, false);
    uint32_t nbad = 0;
    for (size_t k = 0; k < n; ++k) {
        const Vec4 &a = in[k].du, &b = in[k].dv;
        const double ax = a[0], ay = a[1], az = a[2], bx = b[0], by = b[1], bz = b[2];
        std::array<double, 3> c{ay * bz - az * by, az * bx - ax * bz, ax * by - ay * bx};
        if (profile.normal_flip) c = {-c[0], -c[1], -c[2]};
        raw[k] = c;
        const double n2 = c[0] * c[0] + c[1] * c[1] + c[2] * c[2];
        const double a2 = ax * ax + ay * ay + az * az, b2 = bx * bx + by * by + bz * bz;
        bad[k] = !(n2 > profile.normal_degenerate_eps * a2 * b2) || !std::isfinite(n2);
        nbad += bad[k];
    }
    auto finish = [&](const std::array<double, 3>& c) -> Vec4 {
        if (!profile.normal_normalize) return {float(c[0]), float(c[1]), float(c[2]), 1.0f};
        const double len = std::sqrt(c[0] * c[0] + c[1] * c[1] + c[2] * c[2]);
        if (!(len > 0)) return {0.0f, 0.0f, 0.0f, 1.0f};
        return {float(c[0] / len), float(c[1] / len), float(c[2] / len), 1.0f};
    };
    std::vector<Vec4> out(n);
    for (size_t k = 0; k < n; ++k) out[k] = finish(raw[k]);
    if (profile.normal_degenerate_fallback && nbad > 0 && nbad < n) {
        for (size_t k = 0; k < n; ++k) {
            if (!bad[k]) continue;
            double best = std::numeric_limits<double>::infinity();
            size_t pick = k;
            for (size_t q = 0; q < n; ++q) {
                if (bad[q]) continue;
                const double du = double(points[q].u) - points[k].u, dv = double(points[q].v) - points[k].v;
                const double dist = du * du + dv * dv;
                if (dist < best) {
                    best = dist;
                    pick = q;
                }
            }
            out[k] = out[pick];
        }
    }
    if (degenerate) *degenerate = nbad;
    return out;
}

TessOutput tessellate(const decl::Declaration& d, const RectPatchInfo& info, const std::vector<Registers>& control,
                      const float* segs, const PatchState& state, const TessProfile& profile) {
    TessOutput out;
    const uint32_t deg = uint32_t(info.order);
    const uint32_t su = span_count(info.basis, deg, info.width), sv = span_count(info.basis, deg, info.height);
    if (su == 0 || sv == 0 || control.size() != size_t(info.width) * info.height)
        throw TessError("T2", fmt::format("rect patch {}x{} with {} control points cannot be tessellated", info.width,
                                          info.height, control.size()));
    const std::array<uint32_t, 4> n = rect_counts(info, segs, state, profile, &out.warnings, &out.approximated);
    out.segments = effective_rect_counts(n, profile);
    check_output_limit(info, segs, state, profile);
    out.domain = rect_domain(n, profile);
    fill<RectWeights>(
        out, d, control,
        [&](const DomainPoint& p) { return rect_weights(info.basis, deg, info.width, info.height, p, profile); },
        profile);
    return out;
}

TessOutput tessellate(const decl::Declaration& d, const TriPatchInfo& info, const std::vector<Registers>& control,
                      const float* segs, const PatchState& state, const TessProfile& profile) {
    TessOutput out;
    const uint32_t deg = uint32_t(info.order);
    if (control.size() != tri_point_count(deg))
        throw TessError("T5", fmt::format("tri patch of order {} needs {} control points, got {}", order_name(info.order),
                                          tri_point_count(deg), control.size()));
    const std::array<uint32_t, 3> n = tri_counts(segs, state, profile, &out.warnings, &out.approximated);
    const auto eff = effective_tri_counts(n, profile);
    out.segments = {eff[0], eff[1], eff[2], 0};
    check_output_limit(info, segs, state, profile);
    out.domain = tri_domain(n, profile);
    fill<TriWeights>(
        out, d, control, [&](const DomainPoint& p) { return tri_weights(deg, p, profile); }, profile);
    return out;
}

TessOutput draw_patch(const decl::Declaration& d, const vs::Streams& streams, const RectPatchInfo& info,
                      const float* segs, const PatchState& state, const TessProfile& profile) {
    validate(info, profile);
    validate_declaration(d, false, profile);
    check_output_limit(info, segs, state, profile);
    const auto control = fetch_control_points(d, streams, control_indices(info));
    return tessellate(d, info, control, segs, state, profile);
}

TessOutput draw_patch(const decl::Declaration& d, const vs::Streams& streams, const TriPatchInfo& info,
                      const float* segs, const PatchState& state, const TessProfile& profile) {
    validate(info, profile);
    validate_declaration(d, true, profile);
    check_output_limit(info, segs, state, profile);
    const auto control = fetch_control_points(d, streams, control_indices(info));
    return tessellate(d, info, control, segs, state, profile);
}

}  // namespace vpsim::tess

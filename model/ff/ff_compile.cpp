// Fixed function as a vertex program (ff_compile.h): the state of a draw compiled to vs.1.1
// assembly, one commented group of instructions per term of the equations that ff_reference.cpp
// evaluates, with its constant layout. docs/fixed-function.md ("Fixed function as vertex
// programs") describes the layout, the choices (lit and the material power, expp for fog) and
// the instruction counts.
//
// Generating well: everything that depends on state alone is computed here on the CPU, in
// float32 (the combined world-view(-projection) matrices, light positions and directions in
// camera space, light colours premultiplied by material colours and by constant attenuation,
// half vectors of directional lights with a non-local viewer, fog and point-scale factors), and
// terms that are zero by state are not generated at all.
#include "model/ff/ff_compile.h"

#include "model/ff/ff_math.h"

#include "model/ff/ff_reference.h"
#include "model/ff/ff_schedule.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_validate.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <sstream>
#include <string_view>
#include <tuple>

namespace vpsim::ff {

namespace {

// ---------------------------------------------------------------- float32 algebra on the CPU

// Column j of a D3DMATRIX as a constant register: dp4(v, column) is component j of v * M.
Vec4 column(const Matrix& m, int j) { return {m.at(0, j), m.at(1, j), m.at(2, j), m.at(3, j)}; }
std::vector<Vec4> columns(const Matrix& m, int n) {
    std::vector<Vec4> r;
    for (int j = 0; j < n; ++j) r.push_back(column(m, j));
    return r;
}
bool rgb_zero(const Color& c) { return c[0] == 0.0f && c[1] == 0.0f && c[2] == 0.0f; }
Vec4 rgb_mul(const Color& a, const Color& b, float s = 1.0f) {
    return {a[0] * b[0] * s, a[1] * b[1] * s, a[2] * b[2] * s, 0.0f};
}
Vec4 rgb_scale(const Color& a, float s) { return {a[0] * s, a[1] * s, a[2] * s, 0.0f}; }

uint32_t bits(float f) {
    uint32_t u;
    std::memcpy(&u, &f, 4);
    return u;
}

std::string num(float f) { return fmt::format("{}", f); }
std::string vec_text(const Vec4& v) { return fmt::format("({}, {}, {}, {})", v[0], v[1], v[2], v[3]); }


const char* light_type_name(LightType t) {
    switch (t) {
        case LightType::Point: return "point";
        case LightType::Spot: return "spot";
        case LightType::Directional: return "directional";
    }
    return "?";
}

using vs::ops::kLitMaxPower;

// A power for lit: p / 2^j within lit's clamp, and j (the result is squared j times). Dividing
// by a power of two is exact, so lit computes pow(x, p / 2^j) and j squarings give pow(x, p).
std::pair<float, int> lit_power(float p) {
    int j = 0;
    while (std::fabs(p) > kLitMaxPower && j < 200) {
        p *= 0.5f;
        ++j;
    }
    return {p, j};
}

// ---------------------------------------------------------------- the program being generated

struct Op {
    std::string name, dst;
    std::vector<std::string> src;
};
struct Line {
    bool is_op = false;
    std::string text;  // comment text (without "; ")
    Op op;
};

// The lighting pass's sums (lighting_colours): each a temp register, started by its first term.
struct Acc {
    std::string reg;
    bool started = false;
};
struct LightSums {
    std::string se, sa, sd, ss;  // emissive, ambient, diffuse, specular source: "" the material, else v5/v6
    Vec4 kc{0, 0, 0, 0};         // the constant part of the colour: emissive, ambient times the constant ambient sum
    Vec4 ac{0, 0, 0, 0};         // the constant part of the ambient sum (when the ambient colour is the vertex's)
    Acc K{"r3"}, A{"r4"}, D{"r5"}, S{"r6"};  // colour, ambient, diffuse and specular sums
    float lpow = 0.0f;           // the material power as lit's exponent, then `squarings` squarings
    int squarings = 0;
    bool power_set = false;      // r8.w holds lpow
};
// One enabled light as the program computes it.
struct LightTerm {
    std::string name;
    bool amb = false, dif = false, spe = false;  // the terms it contributes
    float fold = 1.0f;         // the constant attenuation factor, folded into its colours
    std::string s_op;          // Atten*Spot as a temp component ("" = 1 * fold)
    std::string lvec;          // unit vertex-to-light vector: temp or constant
    bool spot_merged = false;  // max(N.L, 0) is r10.y (the spotlight's lit)
};

class Generator {
public:
    Generator(const FfState& s, const FfInputs& in, const Caps& caps, uint32_t const_count,
              vs::Profile::OutputDefaults outputs)
        : s_(s), in_(in), caps_(caps), const_count_(const_count), outputs_(outputs) {}

    FfProgram run();

private:
    const FfState& s_;
    const FfInputs& in_;
    const Caps& caps_;
    uint32_t const_count_;
    vs::Profile::OutputDefaults outputs_;  // the engine's output start values (oD0 = (1, 1, 1, 1) with D3D8's)

    std::vector<Line> lines_;
    std::vector<Vec4> consts_;           // c0.. in order
    std::vector<std::string> const_notes_;
    std::map<std::vector<uint32_t>, uint32_t> blocks_;  // contents (bits) -> first register
    std::map<uint32_t, std::string> scalars_;            // float bits -> "cN.c"
    int pool_reg_ = -1, pool_fill_ = 4;
    std::string normal2_reg_;             // the v# NORMAL2 is read from
    // NORMAL2 (16) cannot be named in vs.1.1: it goes to the first input register the
    // declaration leaves free.
    const std::string& normal2() {
        if (normal2_reg_.empty()) {
            for (uint32_t r = 0; r < vs::kNumInputs; ++r)
                if (!in_.has(r)) {
                    normal2_reg_ = fmt::format("v{}", r);
                    break;
                }
            if (normal2_reg_.empty())
                throw FfError("tweening normals: NORMAL2 (D3DVSDE_NORMAL2, register 16) needs a free vs.1.1 input "
                              "register v0..v15, but the declaration loads all 16");
        }
        return normal2_reg_;
    }

    // ---- emission
    void note(const std::string& t) { lines_.push_back(Line{false, t, {}}); }
    void op(const std::string& name, const std::string& dst, std::vector<std::string> src) {
        lines_.push_back(Line{true, "", Op{name, dst, std::move(src)}});
    }

    // ---- constants
    uint32_t block(const std::vector<Vec4>& values, const std::string& what) {
        std::vector<uint32_t> key;
        for (const Vec4& v : values)
            for (float f : v) key.push_back(bits(f));
        const auto it = blocks_.find(key);
        if (it != blocks_.end()) return it->second;
        const uint32_t base = uint32_t(consts_.size());
        for (size_t i = 0; i < values.size(); ++i) {
            consts_.push_back(values[i]);
            const_notes_.push_back(values.size() > 1 ? fmt::format("{} [{}]", what, i) : what);
        }
        blocks_[key] = base;
        return base;
    }
    std::string vec(const Vec4& v, const std::string& what) { return fmt::format("c{}", block({v}, what)); }
    // A scalar as a replicated component of a pooled register: "c7.y".
    std::string scal(float f) {
        const auto it = scalars_.find(bits(f));
        if (it != scalars_.end()) return it->second;
        if (pool_fill_ == 4) {
            pool_reg_ = int(consts_.size());
            consts_.push_back(Vec4{0, 0, 0, 0});
            const_notes_.push_back("numbers");
            pool_fill_ = 0;
        }
        consts_[size_t(pool_reg_)][size_t(pool_fill_)] = f;
        std::string name = fmt::format("c{}.{}", pool_reg_, "xyzw"[pool_fill_]);
        ++pool_fill_;
        scalars_[bits(f)] = name;
        return name;
    }
    std::string one() { return scal(1.0f); }
    std::string zero() { return scal(0.0f); }

    // ---- state-derived facts
    bool lighting() const { return s_.rs.lighting && !in_.pretransformed; }
    bool vertex_fog() const {
        return s_.rs.fogenable && s_.rs.fogtablemode == FogMode::None && s_.rs.fogvertexmode != FogMode::None &&
               !in_.pretransformed;
    }
    // A colour source: "" for the material, else the input register.
    std::string source(MaterialSource m) const {
        if (!s_.rs.colorvertex) return "";
        if (m == MaterialSource::Color1 && in_.has(kDeDiffuse)) return "v5";
        if (m == MaterialSource::Color2 && in_.has(kDeSpecular)) return "v6";
        return "";
    }

    // ---- registers
    // r0 camera-space position, r1 camera-space normal, r2 unit vector to the viewer,
    // r3 colour sum, r4 ambient sum (vertex ambient colour), r5 diffuse sum (vertex diffuse colour),
    // r6 specular sum, r7 vertex-to-light vector (.w distance squared), r8 lit's input,
    // r9 lit's output / half vector, r10 spotlight / reflection / blending scratch, r11 attenuation /
    // fog / point-size scratch, model-space position of tweening.
    bool pc_w1_ = false, nc_w1_ = false, v_done_ = false;

    // Where the lights are computed. Camera space: the position and normal in r0 and r1, light
    // positions and directions through VIEW. Object space (`object_`, chosen in run() where it is
    // exact): the fetched position and normal themselves (lp_, ln_), the lights moved into object
    // space on the CPU through the inverse world-view matrix `inv_wv_`, as NVIDIA's drivers did.
    bool object_ = false;
    Matrix inv_wv_;
    std::string lp_ = "r0", ln_ = "r1";
    // A camera-space direction as the lighting sees it (object space: times the inverse
    // world-view's upper 3x3, normalised when the normals are).
    Vec3 dir(const Vec3& d) const {
        if (!object_) return d;
        const Vec3 o = mul3(d, inv_wv_);
        return s_.rs.normalizenormals ? normalize(o) : o;
    }
    // A camera-space point as the lighting sees it.
    Vec4 point(const Vec4& p) const { return object_ ? mul(p, inv_wv_) : p; }

    void position_and_normal(bool need_pc, bool need_pz, bool need_nc);
    // The parts of position_and_normal: tweening's inputs, one matrix, non-indexed and indexed
    // blending, and what they share (the last weight, a weighted sum, projecting the blended position).
    void tween(bool normals, std::string& p, std::string& n);
    void one_matrix(const std::string& p, const std::string& n, int nw, bool need_pc, bool need_pz, bool normals);
    void blend(const std::string& p, const std::string& n, int nw, bool need_pc, bool need_pz, bool normals);
    void indexed_blend(const std::string& p, const std::string& n, int nw, bool normals);
    std::string last_weight(int nw);
    void blend_sum(uint32_t i, const std::string& acc_dst, const std::string& term, const std::string& weight,
                   const std::string& acc);
    void project_blended_position(const std::string& p);
    void blend_normal(uint32_t i, const std::string& n, uint32_t b, const std::string& weight);
    void lighting_colours(bool need_nc_for_light);
    // The parts of lighting_colours: a light's vector to the vertex and its Atten*Spot factor
    // (attenuation and range, the spotlight's cone), its terms into the sums (ambient, diffuse,
    // specular with its lit), then oD0 and oD1 from the sums.
    void accumulate(Acc& a, const std::string& scalar, const std::string& v);
    void light_vector(const Light& l, LightTerm& t);
    std::string attenuation(const Light& l, LightTerm& t, std::vector<std::string>& factors);  // the range mask
    void spot_factor(const Light& l, LightTerm& t, std::string& range_mask, std::vector<std::string>& factors);
    void light_terms(const Light& l, const LightTerm& t, LightSums& ls);
    void ambient_term(const Light& l, const LightTerm& t, LightSums& ls, const std::string& scalar);
    void diffuse_term(const Light& l, const LightTerm& t, LightSums& ls, const std::string& scalar);
    void specular_lit(const Light& l, const LightTerm& t, LightSums& ls);
    void diffuse_output(LightSums& ls);
    void specular_output(const LightSums& ls);
    // oD1 = v6 (else 0) when writes_specular(); otherwise no write (docs "Dead outputs").
    void specular_passthrough(const std::string& what);
    void fold_alpha(const std::string& out, const std::string& term);
    void clamp_diffuse();
    void unlit_colours();
    void fog();
    void point_size();
    void texcoords();
    void viewer();
    void chain(const std::string& out, const std::string& mask, std::vector<std::pair<std::string, std::string>> prods,
               std::vector<std::string> adds);
    std::string specular_alpha_source();  // what oD1.w is, as an operand
    bool object_space_exact(bool light_positions);
};

// A colour that is one term, `mul OUT.xyz, rN<term>, cK` (a lit output times the light's colour
// constant), with its alpha a constant on its own `mov OUT.w`: lit's w is 1, so one instruction
// writes both, `mul OUT, rN.yyyw, (cK.rgb, alpha)` (for oD0 a diffuse-only light's max(N.L, 0)
// becomes lit's y for that). Nothing else changes: the alpha is the constant times 1.
void Generator::fold_alpha(const std::string& out, const std::string& term) {
    const auto find_last = [&](const std::function<bool(const Op&)>& f, size_t before) -> long {
        for (size_t i = before; i-- > 0;)
            if (lines_[i].is_op && f(lines_[i].op)) return long(i);
        return -1;
    };
    const long mov = find_last([&](const Op& o) { return o.name == "mov" && o.dst == out + ".w"; }, lines_.size());
    const long mul = find_last([&](const Op& o) { return o.dst == out + ".xyz"; }, lines_.size());
    if (mov < 0 || mul < 0) return;
    Op& m = lines_[size_t(mul)].op;
    const Op& a = lines_[size_t(mov)].op;
    if (m.name != "mul" || m.src.size() != 2 || m.src[0].size() < 4 || m.src[0].substr(m.src[0].size() - 2) != term ||
        m.src[0][0] != 'r' || m.src[1][0] != 'c' || m.src[1].find('.') != std::string::npos || a.src[0][0] != 'c' ||
        a.src[0].find('.') == std::string::npos)
        return;
    const std::string reg = m.src[0].substr(0, m.src[0].size() - 2);
    // rN's writer before the mul: lit (x = w = 1), or for oD0 a `max rN.y, rM.x, 0` that lit can replace.
    const auto writes = [&](const Op& o) { return o.dst == reg || o.dst.rfind(reg + ".", 0) == 0; };
    const long w = find_last(writes, size_t(mul));
    if (w < 0) return;
    Op& wo = lines_[size_t(w)].op;
    if (wo.name == "max" && wo.dst == reg + ".y" && term == ".y" && wo.src[1] == zero() && wo.src[0].size() > 3) {
        const std::string in = wo.src[0].substr(0, wo.src[0].find('.'));
        const char c = wo.src[0].back();
        wo = Op{"lit", reg, {in + "." + std::string(4, c)}};
    } else if (wo.name != "lit" || wo.dst != reg) {
        return;
    }
    for (long i = w + 1; i < mul; ++i)  // nothing in between may change rN.w
        if (lines_[size_t(i)].is_op && writes(lines_[size_t(i)].op)) {
            const std::string& d = lines_[size_t(i)].op.dst;
            if (d == reg || d.find('w') != std::string::npos) return;
        }
    const uint32_t k = uint32_t(std::stoul(m.src[1].substr(1)));
    const uint32_t ka = uint32_t(std::stoul(a.src[0].substr(1, a.src[0].find('.') - 1)));
    const float alpha = consts_[ka][std::string_view("xyzw").find(a.src[0].back())];
    const Vec4 c = consts_[k];
    m = Op{"mul", out, {reg + "." + std::string(3, term[1]) + "w", vec({c[0], c[1], c[2], alpha}, const_notes_[k] + ", alpha")}};
    lines_.erase(lines_.begin() + mov);
}

// The output clamp makes max(N.L, 0) redundant when oD0 is one product term: the program is
// `max r9.y, r8.x, 0` then `mul oD0.xyz, r9.y, cK` (cK = Cd*Ld, one light, diffuse only, no
// ambient, emissive or global ambient term: any of those makes the chain a mad/add) and a
// constant alpha on `mov oD0.w`. oD0 is saturated before rasterisation (D3D8's output colours,
// vs_interp's saturate: x > 0 ? min(x, 1) : +0), and with every channel of cK >= 0,
// sat(cK * x) = sat(cK * max(x, 0)) for every x (x <= 0 or NaN: both 0; x = +inf: both 1 where
// cK > 0, both NaN -> 0 where cK = 0). The alpha D3D8 defines is sat(Cd.a); with Cd.a >= 1 it is
// 1, the engine's start value of oD0.w (OutputDefaults::D3D8), so the mov goes too and the colour
// is `dp3` + `mul`. Otherwise nothing changes: dropping the max alone saves nothing, since
// fold_alpha then writes the alpha with the same mul from lit's w (lit pairs in a word).
void Generator::clamp_diffuse() {
    if (outputs_ != vs::Profile::OutputDefaults::D3D8) return;
    long mul = -1, mov = -1, mx = -1;
    for (size_t i = 0; i < lines_.size(); ++i) {
        if (!lines_[i].is_op) continue;
        const Op& o = lines_[i].op;
        if (o.dst.rfind("oD0", 0) == 0) {
            if (o.dst == "oD0.xyz" && o.name == "mul" && mul < 0) mul = long(i);
            else if (o.dst == "oD0.w" && o.name == "mov" && mov < 0) mov = long(i);
            else return;  // oD0 written any other way
        }
    }
    if (mul < 0 || mov < 0) return;
    const Op& m = lines_[size_t(mul)].op;
    const Op& a = lines_[size_t(mov)].op;
    if (m.src.size() != 2 || m.src[0] != "r9.y" || m.src[1][0] != 'c' || m.src[1].find('.') != std::string::npos ||
        a.src[0][0] != 'c' || a.src[0].find('.') == std::string::npos)
        return;
    const Vec4& k = consts_[std::stoul(m.src[1].substr(1))];
    if (!(k[0] >= 0.0f && k[1] >= 0.0f && k[2] >= 0.0f)) return;  // a negative ("dark") light keeps the max
    const float alpha = consts_[std::stoul(a.src[0].substr(1, a.src[0].find('.') - 1))]
                               [std::string_view("xyzw").find(a.src[0].back())];
    if (!(alpha >= 1.0f)) return;
    // r9.y's only writer must be the max, and the mul its only reader.
    for (size_t i = 0; i < lines_.size(); ++i) {
        if (!lines_[i].is_op || long(i) == mul) continue;
        const Op& o = lines_[i].op;
        const bool writes = o.dst == "r9" || o.dst.rfind("r9.", 0) == 0;
        bool reads = false;
        for (const std::string& x : o.src) reads = reads || x.rfind("r9", 0) == 0 || x.rfind("-r9", 0) == 0;
        if (writes && o.name == "max" && o.dst == "r9.y" && o.src.size() == 2 && o.src[1] == zero() && mx < 0 &&
            long(i) < mul && o.src[0].rfind("r8.", 0) == 0 && o.src[0].size() == 4)
            mx = long(i);
        else if (writes || reads)
            return;
    }
    if (mx < 0) return;
    lines_[size_t(mul)].op.src[0] = lines_[size_t(mx)].op.src[0];
    lines_[size_t(mul)].op.dst = "oD0.xyz";
    // Drop the max and the mov with the notes that announce them, and say why at the mul.
    std::vector<size_t> gone;
    for (const long i : {mx, mov}) {
        gone.push_back(size_t(i));
        for (size_t j = size_t(i); j-- > 0 && !lines_[j].is_op;) gone.push_back(j);
    }
    std::sort(gone.rbegin(), gone.rend());
    const size_t mul_at = size_t(mul) - size_t(std::count_if(gone.begin(), gone.end(), [&](size_t g) { return g < size_t(mul); }));
    for (const size_t g : gone) lines_.erase(lines_.begin() + long(g));
    lines_.insert(lines_.begin() + long(mul_at),
                  Line{false, "oD0 = sat(Cd*Ld * N.L): the output clamp does max(N.L, 0)'s work (every channel of Cd*Ld >= 0); "
                              "alpha sat(Cd.a) = 1 is oD0's start value",
                       {}});
}

// Object-space lighting gives camera space's results when the one world-view matrix WV (no
// blending, no tweening) is affine and invertible, and N.L through the normal's inverse transpose
// equals N.(L * inverse(WV)) without normalisation. Normalised normals need WV's upper 3x3 to be
// a rotation times a uniform scale (norm(N * WV^-T) = norm(N) * R); light positions, distances
// and a local viewer need it to be a rotation (distances kept). Sets inv_wv_.
bool Generator::object_space_exact(bool light_positions) {
    if (s_.rs.vertexblend != VertexBlend::Disable) return false;
    const Matrix wv = mul(s_.world[0], s_.view);
    if (wv.at(0, 3) != 0.0f || wv.at(1, 3) != 0.0f || wv.at(2, 3) != 0.0f || wv.at(3, 3) != 1.0f) return false;
    if (!invert(wv, inv_wv_)) return false;
    constexpr float kTol = 1e-5f;
    float scale = 0;
    if (light_positions) return similarity3(wv, kTol, &scale) && std::fabs(scale - 1.0f) <= kTol;
    return !s_.rs.normalizenormals || similarity3(wv, kTol);
}

// Sums products and terms into `out` (an output register written once, at the end): the first
// product takes one addend when the read ports allow it (one constant and one input register per
// instruction), the others follow as mad/add; a single temp term is renamed into the output by
// retargeting the instruction that wrote it.
void Generator::chain(const std::string& out, const std::string& mask, std::vector<std::pair<std::string, std::string>> prods,
                      std::vector<std::string> adds) {
    const auto kind = [](const std::string& o) {
        const std::string x = o[0] == '-' ? o.substr(1) : o;
        return x[0];  // 'c', 'v', 'r'
    };
    const std::string dst = out + mask;
    const std::string tmp = "r10" + mask;
    if (prods.empty()) {
        if (adds.empty()) {
            op("mov", dst, {zero()});
            return;
        }
        if (adds.size() == 1) {
            // A temp summed alone: retarget its last writer when nothing reads it afterwards.
            const std::string& a = adds[0];
            if (kind(a) == 'r' && a.find('.') == std::string::npos) {
                const auto reads = [&](const Op& o) {
                    for (const std::string& s : o.src) {
                        const std::string x = s[0] == '-' ? s.substr(1) : s;
                        if (x.substr(0, x.find('.')) == a) return true;
                    }
                    return false;
                };
                for (auto it = lines_.rbegin(); it != lines_.rend(); ++it) {
                    if (!it->is_op) continue;
                    if (it->op.dst == a + mask) {  // its last writer, same mask: write the output instead
                        it->op.dst = dst;
                        return;
                    }
                    if (reads(it->op) || it->op.dst.substr(0, it->op.dst.find('.')) == a) break;
                }
            }
            op("mov", dst, {a});
            return;
        }
        // two or more additive terms
        std::vector<std::string> rest(adds.begin() + 2, adds.end());
        std::string first = adds[0], second = adds[1];
        if (kind(first) == kind(second) && kind(first) != 'r') {
            // two constants or two inputs in one instruction: move one through a temp
            op("mov", tmp, {first});
            first = "r10";
        }
        op("add", rest.empty() ? dst : tmp, {first, second});
        for (size_t i = 0; i < rest.size(); ++i) op("add", i + 1 == rest.size() ? dst : tmp, {"r10", rest[i]});
        return;
    }
    // the first product, with an addend folded in when the ports allow
    std::string folded;
    for (size_t i = 0; i < adds.size(); ++i) {
        const char k = kind(adds[i]);
        const char a = kind(prods[0].first), b = kind(prods[0].second);
        if (k == 'r' || (k != a && k != b)) {
            folded = adds[i];
            adds.erase(adds.begin() + long(i));
            break;
        }
    }
    const size_t total = prods.size() + adds.size();
    size_t done = 0;
    const auto target = [&]() { return ++done == total ? dst : tmp; };
    if (folded.empty()) op("mul", target(), {prods[0].first, prods[0].second});
    else op("mad", target(), {prods[0].first, prods[0].second, folded});
    for (size_t i = 1; i < prods.size(); ++i) op("mad", target(), {prods[i].first, prods[i].second, "r10"});
    for (const std::string& a : adds) op("add", target(), {"r10", a});
}

// The unit vector from the vertex to the viewer (local viewer), in r2.
void Generator::viewer() {
    if (v_done_) return;
    v_done_ = true;
    if (object_) {
        const Vec4 eye = point({0, 0, 0, 1});
        note("local viewer: V = norm(eye - P), the vertex-to-eye direction (object space)");
        op("add", "r2.xyz", {vec({eye[0], eye[1], eye[2], 0}, "the eye in object space"), "-" + lp_});
        op("dp3", "r2.w", {"r2", "r2"});
        op("rsq", "r2.w", {"r2.w"});
        op("mul", "r2.xyz", {"r2", "r2.w"});
        return;
    }
    note("local viewer: V = norm(-P), the vertex-to-eye direction");
    op("dp3", "r2.w", {"r0", "r0"});
    op("rsq", "r2.w", {"r2.w"});
    op("mul", "r2.xyz", {"-r0", "r2.w"});
}

void Generator::position_and_normal(bool need_pc, bool need_pz, bool need_nc) {
    const RenderStates& rs = s_.rs;
    const int nw = blend_weights(rs.vertexblend);
    const bool has_normal = in_.has(kDeNormal);
    const bool normals = need_nc && has_normal;

    std::string p = "v0", n = "v3";
    if (rs.vertexblend == VertexBlend::Tweening) tween(normals, p, n);
    if (nw < 0 || (nw == 0 && !rs.indexedvertexblendenable)) one_matrix(p, n, nw, need_pc, need_pz, normals);
    else if (!rs.indexedvertexblendenable) blend(p, n, nw, need_pc, need_pz, normals);
    else indexed_blend(p, n, nw, normals);

    if (need_nc && !has_normal) {
        note("no normal in the declaration: N = 0");
        op("mov", "r1", {zero()});
        nc_w1_ = false;
    } else if (normals && rs.normalizenormals) {
        const std::string src = object_ ? n : "r1";
        note(object_ ? "NORMALIZENORMALS: N = norm(N) (object space)" : "NORMALIZENORMALS: N = norm(N)");
        op("dp3", "r1.w", {src, src});
        op("rsq", "r1.w", {"r1.w"});
        op("mul", "r1.xyz", {src, "r1.w"});
    } else if (normals && object_) {
        ln_ = n;
    }
}

// Tweening: the position (and the normal, when both are given) between the two streams' at
// TWEENFACTOR; `p` and `n` become the registers that hold them.
void Generator::tween(bool normals, std::string& p, std::string& n) {
    const float t = s_.rs.tweenfactor, u = 1.0f - t;
    note(fmt::format("tweening: P = POSITION * (1 - {0}) + POSITION2 * {0}", num(t)));
    op("mul", "r11", {"v0", scal(u)});
    op("mad", "r11", {"v15", scal(t), "r11"});
    p = "r11";
    if (normals && in_.has(kDeNormal2)) {
        note("tweening: N = NORMAL * (1 - t) + NORMAL2 * t");
        op("mul", "r10.xyz", {"v3", scal(u)});
        op("mad", "r10.xyz", {normal2(), scal(t), "r10"});
        n = "r10";
    }
}

// No blending (or 0WEIGHTS, one matrix): oPos through one combined matrix, the camera-space
// position or its z, the normal through the inverse transpose of WORLD * VIEW (0WEIGHTS: its
// upper 3x3, as a blend of one matrix).
void Generator::one_matrix(const std::string& p, const std::string& n, int nw, bool need_pc, bool need_pz,
                           bool normals) {
    const Matrix wv = mul(s_.world[0], s_.view);
    const Matrix wvp = mul(wv, s_.projection);
    note("transform: oPos = P * WORLD * VIEW * PROJECTION (one combined matrix)");
    op("m4x4", "oPos", {p, fmt::format("c{}", block(columns(wvp, 4), "world-view-projection"))});
    const uint32_t wvb = block(columns(wv, 3), "world-view");
    if (need_pc) {
        note("camera-space position P = P * WORLD * VIEW");
        op("m4x3", "r0", {p, fmt::format("c{}", wvb)});
    } else if (need_pz) {
        note("camera-space z (fog distance)");
        op("dp4", "r0.z", {p, fmt::format("c{}", wvb + 2)});
    }
    if (object_) lp_ = p;
    if (!normals || object_) return;
    if (nw < 0) {
        bool singular = false;
        const Matrix g = normal_matrix(wv, &singular);
        note(singular ? "camera-space normal N = N * WORLD * VIEW (upper 3x3: the matrix is singular)"
                      : "camera-space normal N = N * inverse transpose of WORLD * VIEW");
        op("m3x3", "r1", {n, fmt::format("c{}", block(columns(g, 3), "normal matrix"))});
    } else {
        note("camera-space normal N = N * WORLD * VIEW (upper 3x3: 0WEIGHTS blends one matrix)");
        op("m3x3", "r1", {n, fmt::format("c{}", wvb)});
    }
}

// The last blend weight, 1 - the sum of the `nw` weights in v1 (none when nw is 0), into the
// register it returns.
std::string Generator::last_weight(int nw) {
    const std::string wlast = "r11.w";
    if (nw == 1) {
        op("add", wlast, {"-v1.x", one()});
    } else if (nw > 1 && in_.components[kDeBlendWeight] == nw) {
        // v1 is (w0, .., 0.., 1): dp4 with (-1.., 0.., 1) gives 1 - sum
        Vec4 k{0, 0, 0, 1};
        for (int i = 0; i < nw; ++i) k[size_t(i)] = -1.0f;
        op("dp4", wlast, {"v1", vec(k, "blend: -1 per weight, 1 for v1.w")});
    } else if (nw > 1) {
        Vec4 k{0, 0, 0, 0};
        for (int i = 0; i < nw; ++i) k[size_t(i)] = -1.0f;
        op("dp4", wlast, {"v1", vec(k, "blend: -1 per weight")});
        op("add", wlast, {wlast, one()});
    }
    return wlast;
}

// `acc` (.xyz, or a whole register) += `term` * `weight`; the first term (i = 0) starts it.
void Generator::blend_sum(uint32_t i, const std::string& acc_dst, const std::string& term, const std::string& weight,
                          const std::string& acc) {
    op(i == 0 ? "mul" : "mad", acc_dst,
       i == 0 ? std::vector<std::string>{term, weight} : std::vector<std::string>{term, weight, acc});
}

// After a blend into the camera-space position r0.xyz: its w from the input (the weights sum to 1
// and WORLD * VIEW is affine), then oPos = P * PROJECTION.
void Generator::project_blended_position(const std::string& p) {
    op("mov", "r0.w", {p + ".w"});
    pc_w1_ = in_.components[kDePosition] <= 3;
    note("oPos = P * PROJECTION");
    op("m4x4", "oPos", {"r0", fmt::format("c{}", block(columns(s_.projection, 4), "projection"))});
}

// Non-indexed blending of nw + 1 world matrices, the last weight 1 - the sum of the others: in
// camera space when the position is needed there, else straight to oPos (and the fog's z alone).
void Generator::blend(const std::string& p, const std::string& n, int nw, bool need_pc, bool need_pz, bool normals) {
    const uint32_t count = uint32_t(nw) + 1;
    note(fmt::format("vertex blending: {} world matrices, weights v1.x..; the last weight 1 - their sum", count));
    const std::string wlast = last_weight(nw);
    const auto weight = [&](uint32_t i) { return i + 1 == count ? wlast : fmt::format("v1.{}", "xyzw"[i]); };
    if (need_pc) {
        for (uint32_t i = 0; i < count; ++i) {
            const Matrix wv = mul(s_.world[i], s_.view);
            const uint32_t b = block(columns(wv, 3), fmt::format("world-view {}", i));
            note(fmt::format("blend: P += w{0} * P * WORLDMATRIX({0}) * VIEW", i));
            op("m4x3", "r10", {p, fmt::format("c{}", b)});
            blend_sum(i, "r0.xyz", "r10", weight(i), "r0");
            if (normals) blend_normal(i, n, b, weight(i));
        }
        project_blended_position(p);
        return;
    }
    for (uint32_t i = 0; i < count; ++i) {
        const Matrix wvp = mul(mul(s_.world[i], s_.view), s_.projection);
        const uint32_t b = block(columns(wvp, 4), fmt::format("world-view-projection {}", i));
        note(fmt::format("blend: oPos += w{0} * P * WORLDMATRIX({0}) * VIEW * PROJECTION", i));
        op("m4x4", "r10", {p, fmt::format("c{}", b)});
        blend_sum(i, i + 1 == count ? "oPos" : "r0", "r10", weight(i), "r0");
    }
    if (need_pz) {
        // fog z without the full position: blend the z row alone
        for (uint32_t i = 0; i < count; ++i) {
            const Matrix wv = mul(s_.world[i], s_.view);
            note(fmt::format("blend: camera-space z += w{0} * P * WORLDMATRIX({0}) * VIEW (.z)", i));
            op("dp4", "r10.z", {p, vec(column(wv, 2), fmt::format("world-view {} column z", i))});
            blend_sum(i, "r0.z", "r10.z", weight(i), "r0.z");
        }
    }
    if (normals) {
        for (uint32_t i = 0; i < count; ++i) {
            const Matrix wv = mul(s_.world[i], s_.view);
            blend_normal(i, n, block(columns(wv, 3), fmt::format("world-view {}", i)), weight(i));
        }
    }
}

// N += w_i * N * WORLDMATRIX(i) * VIEW (upper 3x3, at c`b`) into r1.xyz.
void Generator::blend_normal(uint32_t i, const std::string& n, uint32_t b, const std::string& weight) {
    note(fmt::format("blend: N += w{0} * N * WORLDMATRIX({0}) * VIEW", i));
    op("m3x3", "r10", {n, fmt::format("c{}", b)});
    blend_sum(i, "r1.xyz", "r10", weight, "r1");
}

// Indexed blending: the world-view matrices of WORLDMATRIX(0..MaxVertexBlendMatrixIndex), 3
// registers each, addressed by a0.x = 3 * index.
void Generator::indexed_blend(const std::string& p, const std::string& n, int nw, bool normals) {
    const uint32_t count = uint32_t(nw) + 1;
    const uint32_t palette = std::min<uint32_t>(caps_.max_vertex_blend_matrix_index, 255) + 1;
    std::vector<Vec4> all;
    for (uint32_t i = 0; i < palette; ++i)
        for (const Vec4& c : columns(mul(s_.world[i], s_.view), 3)) all.push_back(c);
    const uint32_t base = block(all, "indexed world-view palette");
    note(fmt::format("indexed vertex blending: {} matrices from a palette of {} (MaxVertexBlendMatrixIndex {}), "
                     "3 registers each at c{}",
                     count, palette, caps_.max_vertex_blend_matrix_index, base));
    op("mul", "r10", {"v2", scal(3.0f)});
    const std::string wlast = last_weight(nw);
    const auto weight = [&](uint32_t i) { return i + 1 == count ? wlast : fmt::format("v1.{}", "xyzw"[i]); };
    const std::string rel = fmt::format("c[a0.x + {}]", base);
    for (uint32_t i = 0; i < count; ++i) {
        note(fmt::format("blend: matrix {0} = WORLDMATRIX(v2.{1})", i, "xyzw"[i]));
        op("mov", "a0.x", {fmt::format("r10.{}", "xyzw"[i])});
        if (count == 1) {
            op("m4x3", "r0", {p, rel});
            if (normals) op("m3x3", "r1", {n, rel});
            continue;
        }
        op("m4x3", "r9", {p, rel});
        blend_sum(i, "r0.xyz", "r9", weight(i), "r0");
        if (normals) {
            op("m3x3", "r9", {n, rel});
            blend_sum(i, "r1.xyz", "r9", weight(i), "r1");
        }
    }
    project_blended_position(p);
}

void Generator::unlit_colours() {
    note("no lighting: oD0 = the vertex's diffuse colour, else opaque white");
    op("mov", "oD0", {in_.has(kDeDiffuse) ? "v5" : vec({1, 1, 1, 1}, "white")});
    specular_passthrough("oD1 = the vertex's specular colour, else (0, 0, 0, 0)");
}

void Generator::specular_passthrough(const std::string& what) {
    if (!writes_specular(s_, in_)) {
        note("oD1 is not written: nothing reads it (SPECULARENABLE FALSE, no fog from the specular alpha, "
             "no enabled texture stage reads D3DTA_SPECULAR)");
        return;
    }
    note(what);
    op("mov", "oD1", {in_.has(kDeSpecular) ? "v6" : vec({0, 0, 0, 0}, "zero")});
}

std::string Generator::specular_alpha_source() {
    if (lighting() && s_.rs.specularenable) {
        const std::string src = source(s_.rs.specularmaterialsource);
        return src.empty() ? scal(s_.material.specular[3]) : src + ".w";
    }
    return in_.has(kDeSpecular) ? "v6.w" : zero();
}

void Generator::accumulate(Acc& a, const std::string& scalar, const std::string& v) {
    if (!a.started) op("mul", a.reg + ".xyz", {scalar, v});
    else op("mad", a.reg + ".xyz", {scalar, v, a.reg});
    a.started = true;
}

void Generator::lighting_colours(bool has_nc) {
    const RenderStates& rs = s_.rs;
    const Material& m = s_.material;
    LightSums ls;
    ls.se = source(rs.emissivematerialsource);
    ls.sa = source(rs.ambientmaterialsource);
    ls.sd = source(rs.diffusematerialsource);
    ls.ss = source(rs.specularmaterialsource);
    const Color ga = from_d3dcolor(rs.ambient);
    ls.ac = {ga[0], ga[1], ga[2], 0};
    if (ls.se.empty()) ls.kc = {m.emissive[0], m.emissive[1], m.emissive[2], 0};
    std::tie(ls.lpow, ls.squarings) = lit_power(m.power);

    note(fmt::format("lighting: colour = Ce + Ca * (Ga + sum Atten*Spot*La) + Cd * sum Atten*Spot*(N.L)*Ld; "
                     "sources: emissive {}, ambient {}, diffuse {}, specular {}",
                     ls.se.empty() ? "material" : ls.se, ls.sa.empty() ? "material" : ls.sa,
                     ls.sd.empty() ? "material" : ls.sd, ls.ss.empty() ? "material" : ls.ss));

    uint32_t li = 0;
    for (const auto& [index, slot] : s_.lights) {
        if (!slot.enabled) continue;
        const Light& l = slot.light;
        const uint32_t n = li++;
        LightTerm t;
        t.name = fmt::format("light {} ({}, index {})", n, light_type_name(l.type), index);
        t.amb = !rgb_zero(l.ambient) && (!ls.sa.empty() || !rgb_zero(rgb_mul(m.ambient, l.ambient)));
        t.dif = has_nc && !rgb_zero(l.diffuse) && (!ls.sd.empty() || !rgb_zero(rgb_mul(m.diffuse, l.diffuse)));
        t.spe = has_nc && rs.specularenable && !rgb_zero(l.specular) &&
                (!ls.ss.empty() || !rgb_zero(rgb_mul(m.specular, l.specular)));
        if (!t.amb && !t.dif && !t.spe) {
            note(t.name + ": contributes nothing (zero colours, or no normal)");
            continue;
        }
        light_vector(l, t);
        light_terms(l, t, ls);
    }
    diffuse_output(ls);
    specular_output(ls);
}

void Generator::light_vector(const Light& l, LightTerm& t) {
    if (l.type == LightType::Directional) {
        const Vec3 ld = normalize(mul3(l.direction, s_.view));
        const Vec3 L = dir({-ld[0], -ld[1], -ld[2]});
        t.lvec = vec({L[0], L[1], L[2], 0}, t.name + (object_ ? ": direction to the light (object space)"
                                                              : ": direction to the light"));
        return;
    }
    std::vector<std::string> factors;
    std::string range_mask = attenuation(l, t, factors);
    t.lvec = "r7";
    if (l.type == LightType::Spot) spot_factor(l, t, range_mask, factors);
    if (!range_mask.empty()) factors.push_back(range_mask);
    // the product of the factors into one scalar
    if (factors.size() == 1) {
        t.s_op = factors[0];
    } else if (factors.size() > 1) {
        note(t.name + ": Atten * Spot");
        op("mul", "r11.x", {factors[0], factors[1]});
        for (size_t i = 2; i < factors.size(); ++i) op("mul", "r11.x", {"r11.x", factors[i]});
        t.s_op = "r11.x";
    }
}

std::string Generator::attenuation(const Light& l, LightTerm& t, std::vector<std::string>& factors) {
    const std::string& name = t.name;
    const Vec4 lp = point(mul(Vec4{l.position[0], l.position[1], l.position[2], 1.0f}, s_.view));
    note(name + ": L = light position - P, d^2");
    op("sub", "r7.xyz", {vec({lp[0], lp[1], lp[2], 0}, name + (object_ ? ": object-space position"
                                                                    : ": camera-space position")),
                         lp_});
    op("dp3", "r7.w", {"r7", "r7"});
    const float a0 = l.attenuation0, a1 = l.attenuation1, a2 = l.attenuation2;
    const bool need_unit = t.dif || t.spe || l.type == LightType::Spot;
    if (a1 == 0.0f && a2 == 0.0f) {
        t.fold = 1.0f / a0;
        note(fmt::format("{}: attenuation 1/{} (constant, folded into the colours)", name, num(a0)));
        if (need_unit) op("rsq", "r11.w", {"r7.w"});
    } else if (a0 == 0.0f && a2 == 0.0f) {
        t.fold = 1.0f / a1;
        note(fmt::format("{}: attenuation 1/({} d) = (1/d) * {}", name, num(a1), num(t.fold)));
        op("rsq", "r11.w", {"r7.w"});
        factors.push_back("r11.w");
    } else if (a0 == 0.0f && a1 == 0.0f) {
        t.fold = 1.0f / a2;
        note(fmt::format("{}: attenuation 1/({} d^2) = (1/d^2) * {}", name, num(a2), num(t.fold)));
        if (need_unit) op("rsq", "r11.w", {"r7.w"});
        op("rcp", "r11.x", {"r7.w"});
        factors.push_back("r11.x");
    }
    // Range: sqrt(FLT_MAX), D3D8's largest, cuts nothing a float distance can reach.
    const float range2 = l.range * l.range;
    const bool ranged = l.range < std::sqrt(std::numeric_limits<float>::max());
    bool range_done = false, unit_done = false;
    if (!(a1 == 0.0f && a2 == 0.0f) && !(a0 == 0.0f && a2 == 0.0f) && !(a0 == 0.0f && a1 == 0.0f)) {
        note(fmt::format("{}: attenuation 1/({} + {} d + {} d^2)", name, num(a0), num(a1), num(a2)));
        op("rsq", "r11.w", {"r7.w"});
        op("dst", "r11", {"r7.wwww", "r11.wwww"});
        if (ranged) {
            // beyond the range the denominator gets FLT_MAX: attenuation ~1e-39, i.e. 0
            if (need_unit) {
                note(name + ": L = norm(L)");
                op("mul", "r7.xyz", {"r7", "r11.w"});
                unit_done = true;
            }
            note(fmt::format("{}: range {}: nothing beyond it (d^2 > {} adds FLT_MAX to the denominator)", name,
                             num(l.range), num(range2)));
            op("slt", "r11.w", {scal(range2), "r7.w"});
            op("dp4", "r11.x",
               {"r11", vec({a0, a1, a2, std::numeric_limits<float>::max()}, name + ": attenuation0..2, FLT_MAX")});
            range_done = true;
        } else {
            op("dp3", "r11.x", {"r11", vec({a0, a1, a2, 0}, name + ": attenuation0..2")});
        }
        op("rcp", "r11.x", {"r11.x"});
        factors.push_back("r11.x");
    }
    std::string range_mask;
    if (ranged && !range_done) {
        note(fmt::format("{}: range {}: nothing beyond it (d^2 <= {})", name, num(l.range), num(range2)));
        op("sge", "r11.y", {scal(range2), "r7.w"});
        range_mask = "r11.y";
    }
    if (need_unit && !unit_done) {
        note(name + ": L = norm(L)");
        op("mul", "r7.xyz", {"r7", "r11.w"});
    }
    return range_mask;
}

void Generator::spot_factor(const Light& l, LightTerm& t, std::string& range_mask, std::vector<std::string>& factors) {
    const std::string& name = t.name;
    const Vec3 dn = normalize(dir(normalize(mul3(l.direction, s_.view))));
    const float ct = std::cos(l.theta * 0.5f), cp = std::cos(l.phi * 0.5f);
    note(fmt::format("{}: spotlight factor, rho = -dir . L, cos(theta/2) {}, cos(phi/2) {}, falloff {}", name,
                     num(ct), num(cp), num(l.falloff)));
    op("dp3", "r10.x", {"r7", vec({-dn[0], -dn[1], -dn[2], 0}, name + ": -direction")});
    if (!(ct > cp)) {
        // no penumbra: 1 inside the cone (rho > cos(theta/2)), else 0
        op("slt", "r10.z", {scal(ct), "r10.x"});
    } else {
        // t = (rho - cos(phi/2)) / (cos(theta/2) - cos(phi/2)); lit gives t^falloff for t > 0
        const float k = 1.0f / (ct - cp);
        const auto [fp, fj] = lit_power(l.falloff);
        const std::string c = vec({k, -cp * k, fp, 0}, name + ": 1/(cos(theta/2)-cos(phi/2)), offset, falloff");
        // A diffuse-only light shares one lit between max(N.L, 0) and the spot factor
        // (lit's gate on x = N.L only zeroes a spot factor whose diffuse term is 0).
        t.spot_merged = t.dif && !t.spe && !t.amb && fj == 0;
        op("mad", t.spot_merged ? "r10.yw" : "r10.xyw", {"r10.x", c + ".xxxw", c + ".yyyz"});
        // t clamped to 1, and to the range mask (0 beyond the range: lit gives 0)
        op("min", "r10.y", {"r10.y", range_mask.empty() ? one() : range_mask});
        range_mask.clear();
        if (t.spot_merged) {
            note(name + ": N.L into the same lit: (1, max(N.L, 0), t^falloff, 1)");
            op("dp3", "r10.x", {ln_, "r7"});
        }
        op("lit", "r10", {"r10"});
        for (int j = 0; j < fj; ++j) op("mul", "r10.z", {"r10.z", "r10.z"});
    }
    factors.push_back("r10.z");
}

void Generator::light_terms(const Light& l, const LightTerm& t, LightSums& ls) {
    const Material& m = s_.material;
    const std::string& name = t.name;
    // The ambient term of a light whose factor is constant joins the constant sums.
    if (t.amb && t.s_op.empty()) {
        if (ls.sa.empty()) {
            const Vec4 c = rgb_mul(m.ambient, l.ambient, t.fold);
            for (int k = 0; k < 3; ++k) ls.kc[size_t(k)] += c[size_t(k)];
        } else {
            for (int k = 0; k < 3; ++k) ls.ac[size_t(k)] += l.ambient[size_t(k)] * t.fold;
        }
    }
    if (!t.dif && !t.spe) {
        if (t.amb && !t.s_op.empty()) {
            note(name + ": ambient term Atten * La");
            ambient_term(l, t, ls, t.s_op);
        }
        return;
    }
    if (t.spot_merged) {
        note(name + ": diffuse term, max(N.L, 0) * Atten * Spot");
        op("mul", "r10.y", {"r10.y", t.s_op});
        diffuse_term(l, t, ls, "r10.y");
        return;
    }
    note(name + ": N.L");
    op("dp3", "r8.x", {ln_, t.lvec});
    if (t.spe) {
        specular_lit(l, t, ls);
    } else if (t.amb && !t.s_op.empty()) {
        note(name + ": lit: (1, max(N.L, 0), -, 1)");
        op("lit", "r9", {"r8.x"});
    } else {
        note(name + ": max(N.L, 0)");
        op("max", "r9.y", {"r8.x", zero()});
    }
    if (!t.s_op.empty()) {
        note(name + ": times Atten * Spot");
        if (t.amb) op("mul", "r9", {"r9", t.s_op});
        else op("mul", t.spe ? "r9.yz" : "r9.y", {"r9", t.s_op});
        if (t.amb) ambient_term(l, t, ls, "r9.x");
    }
    if (t.dif) {
        note(name + ": diffuse term");
        diffuse_term(l, t, ls, "r9.y");
    }
    if (t.spe) {
        note(name + ": specular term");
        if (ls.ss.empty()) accumulate(ls.S, "r9.z", vec(rgb_mul(m.specular, l.specular, t.fold), name + ": Cs * Ls"));
        else accumulate(ls.S, "r9.z", vec(rgb_scale(l.specular, t.fold), name + ": Ls"));
    }
}

void Generator::ambient_term(const Light& l, const LightTerm& t, LightSums& ls, const std::string& scalar) {
    const Material& m = s_.material;
    if (ls.sa.empty()) accumulate(ls.K, scalar, vec(rgb_mul(m.ambient, l.ambient, t.fold), t.name + ": Ca * La"));
    else accumulate(ls.A, scalar, vec(rgb_scale(l.ambient, t.fold), t.name + ": La"));
}

void Generator::diffuse_term(const Light& l, const LightTerm& t, LightSums& ls, const std::string& scalar) {
    const Material& m = s_.material;
    if (ls.sd.empty()) accumulate(ls.K, scalar, vec(rgb_mul(m.diffuse, l.diffuse, t.fold), t.name + ": Cd * Ld"));
    else accumulate(ls.D, scalar, vec(rgb_scale(l.diffuse, t.fold), t.name + ": Ld"));
}

void Generator::specular_lit(const Light& l, const LightTerm& t, LightSums& ls) {
    const std::string& name = t.name;
    const Vec3 nonlocal_eye{0, 0, -1};
    if (l.type == LightType::Directional && !s_.rs.localviewer) {
        const Vec3 ld = normalize(mul3(l.direction, s_.view));
        const Vec3 h =
            dir(normalize(Vec3{-ld[0] + nonlocal_eye[0], -ld[1] + nonlocal_eye[1], -ld[2] + nonlocal_eye[2]}));
        note(name + ": N.H, H = norm(L + (0, 0, -1)) (non-local viewer, constant)");
        op("dp3", "r8.y", {ln_, vec({h[0], h[1], h[2], 0}, name + ": half vector")});
    } else {
        note(name + fmt::format(": N.H, H = norm(L + {})", s_.rs.localviewer ? "V" : "(0, 0, -1)"));
        if (s_.rs.localviewer) {
            viewer();
            op("add", "r9.xyz", {t.lvec, "r2"});
        } else {
            const Vec3 e = dir(nonlocal_eye);
            op("add", "r9.xyz", {t.lvec, vec({e[0], e[1], e[2], 0}, "non-local viewer (0, 0, -1)")});
        }
        op("dp3", "r9.w", {"r9", "r9"});
        op("rsq", "r9.w", {"r9.w"});
        op("dp3", "r8.y", {ln_, "r9"});
        op("mul", "r8.y", {"r8.y", "r9.w"});
    }
    if (!ls.power_set) {
        op("mov", "r8.w", {scal(ls.lpow)});
        ls.power_set = true;
    }
    note(name + fmt::format(": lit: max(N.L, 0) and (N.H)^{} where N.L > 0 and N.H > 0", num(s_.material.power)));
    op("lit", "r9", {"r8"});
    for (int j = 0; j < ls.squarings; ++j) op("mul", "r9.z", {"r9.z", "r9.z"});
}

void Generator::diffuse_output(LightSums& ls) {
    const Material& m = s_.material;
    Vec4& kc = ls.kc;
    const Vec4& ac = ls.ac;
    const std::string &sa = ls.sa, &sd = ls.sd, &se = ls.se;
    // oD0 = kc + K + vA * (ac + A) + vD * D + vE, alpha the diffuse source's.
    if (sa.empty()) {
        const Vec4 t = rgb_mul(m.ambient, {ac[0], ac[1], ac[2], 0});
        for (int c = 0; c < 3; ++c) kc[size_t(c)] += t[size_t(c)];
    }
    std::vector<std::pair<std::string, std::string>> prods;
    std::vector<std::string> adds;
    note("oD0 = emissive + ambient + diffuse sums; alpha = the diffuse source's alpha");
    if (!sa.empty()) {
        const bool ac_zero = ac[0] == 0.0f && ac[1] == 0.0f && ac[2] == 0.0f;
        if (ls.A.started) {
            if (!ac_zero) op("add", "r4.xyz", {"r4", vec(ac, "global ambient + constant light ambient")});
            prods.push_back({sa, "r4"});
        } else if (!ac_zero) {
            prods.push_back({sa, vec(ac, "global ambient + constant light ambient")});
        }
    }
    if (!sd.empty() && ls.D.started) prods.push_back({sd, "r5"});
    if (ls.K.started) adds.push_back("r3");
    // Alpha is written on its own: an infinite product (a light at distance 0, an overflowing
    // power) would make a folded w NaN; only a colour that is one constant carries its alpha.
    const bool alpha_folds = sd.empty() && prods.empty() && adds.empty() && se.empty();
    if (alpha_folds) kc[3] = m.diffuse[3];
    if (!(kc[0] == 0.0f && kc[1] == 0.0f && kc[2] == 0.0f) || alpha_folds)
        adds.push_back(vec(kc, alpha_folds ? "emissive + ambient constants, diffuse alpha" : "emissive + ambient constants"));
    if (!se.empty()) adds.push_back(se);
    chain("oD0", alpha_folds ? "" : ".xyz", prods, adds);
    if (!alpha_folds) op("mov", "oD0.w", {sd.empty() ? scal(m.diffuse[3]) : sd + ".w"});
}

void Generator::specular_output(const LightSums& ls) {
    const Material& m = s_.material;
    const std::string& ss = ls.ss;
    if (!s_.rs.specularenable) {
        specular_passthrough("SPECULARENABLE FALSE: oD1 = the vertex's specular colour, else (0, 0, 0, 0)");
        return;
    }
    note("oD1 = Cs * specular sum; alpha = the specular source's alpha");
    if (ss.empty()) {
        if (ls.S.started) {
            chain("oD1", ".xyz", {}, {"r6"});
            op("mov", "oD1.w", {scal(m.specular[3])});
        } else {
            op("mov", "oD1", {vec({0, 0, 0, m.specular[3]}, "specular: no term, the material's alpha")});
        }
    } else if (ls.S.started) {
        op("mul", "oD1.xyz", {ss, "r6"});
        op("mov", "oD1.w", {ss + ".w"});
    } else {
        op("mul", "oD1", {ss, vec({0, 0, 0, 1}, "alpha mask")});
    }
}

void Generator::fog() {
    const RenderStates& rs = s_.rs;
    if (!rs.fogenable) {
        note("FOGENABLE FALSE: no fog factor is read; oFog is not written");
        return;
    }
    if (!vertex_fog()) {
        note("oFog = the specular alpha (no vertex fog)");
        op("mov", "oFog.x", {specular_alpha_source()});
        return;
    }
    const float log2e = 1.4426950408889634f;
    const float dens = rs.fogdensity;
    const char* mode = rs.fogvertexmode == FogMode::Linear ? "LINEAR" : rs.fogvertexmode == FogMode::Exp ? "EXP" : "EXP2";
    note(fmt::format("vertex fog {}, distance {}", mode, rs.rangefogenable ? "|P| (RANGEFOGENABLE)" : "|P.z|"));
    if (rs.fogvertexmode == FogMode::Linear && rs.fogend == rs.fogstart) {
        note("FOGSTART == FOGEND: fully fogged");
        op("mov", "oFog.x", {zero()});
        return;
    }
    // the distance d (range) or |z|
    if (rs.rangefogenable) {
        op("dp3", "r11.w", {"r0", "r0"});
        if (rs.fogvertexmode != FogMode::Exp2) {
            op("rsq", "r11.x", {"r11.w"});
            op("mul", "r11.w", {"r11.w", "r11.x"});
        }
    }
    switch (rs.fogvertexmode) {
        case FogMode::Linear: {
            // (end - d) / (end - start) = d * -1/(end - start) + end/(end - start)
            const float k = 1.0f / (rs.fogend - rs.fogstart);
            const std::string c = vec({-k, rs.fogend * k, 0, 0}, "fog: -1/(end-start), end/(end-start)");
            if (!rs.rangefogenable) op("max", "r11.w", {"r0.z", "-r0.z"});
            op("mad", "oFog.x", {"r11.w", c + ".x", c + ".y"});
            return;
        }
        case FogMode::Exp:
            // e^(-d density) = 2^(-d density log2 e)
            if (rs.rangefogenable) {
                op("mul", "r11.w", {"r11.w", scal(-dens * log2e)});
            } else {
                op("mul", "r11.w", {"r0.z", scal(dens * log2e)});
                op("min", "r11.w", {"r11.w", "-r11.w"});
            }
            break;
        case FogMode::Exp2:
            // e^(-(d density)^2) = 2^(-d^2 density^2 log2 e)
            if (rs.rangefogenable) {
                op("mul", "r11.w", {"r11.w", scal(-dens * dens * log2e)});
            } else {
                op("mul", "r11.w", {"r0.z", scal(dens * std::sqrt(log2e))});
                op("mul", "r11.w", {"r11.w", "-r11.w"});
            }
            break;
        case FogMode::None: break;
    }
    op("expp", "r11.z", {"r11.w"});
    op("mov", "oFog.x", {"r11.z"});
}

void Generator::point_size() {
    const RenderStates& rs = s_.rs;
    const bool has_psize = in_.has(kDePSize);
    const float lo = rs.pointsize_min, hi = std::fmin(rs.pointsize_max, caps_.max_point_size);
    std::string size;
    if (rs.pointscaleenable && !in_.pretransformed) {
        const float h = float(s_.viewport.height);
        const float si = has_psize ? 1.0f : rs.pointsize;
        note(fmt::format("point size: Si * {} * sqrt(1 / (A + B De + C De^2)), De = |P|", num(h)));
        op("dp3", "r11.w", {"r0", "r0"});
        op("rsq", "r11.y", {"r11.w"});
        op("dst", "r11", {"r11.wwww", "r11.yyyy"});
        if (si > 0.0f) {
            // (A, B, C) / (H Si)^2: rsq gives H Si sqrt(1 / (A + B De + C De^2))
            const float hs = h * si, q = hs * hs;
            op("dp3", "r11.x", {"r11", vec({rs.pointscale_a / q, rs.pointscale_b / q, rs.pointscale_c / q, 0},
                                           "point scale (A, B, C) / (viewport height * size)^2")});
            op("rsq", "r11.x", {"r11.x"});
        } else {
            op("dp3", "r11.x", {"r11", vec({rs.pointscale_a, rs.pointscale_b, rs.pointscale_c, 0}, "point scale A, B, C")});
            op("rsq", "r11.x", {"r11.x"});
            op("mul", "r11.x", {"r11.x", scal(h * si)});
        }
        if (has_psize) op("mul", "r11.x", {"r11.x", "v4.x"});
        size = "r11.x";
    } else {
        note("point size: the vertex's PSIZE");
        size = "v4.x";
    }
    note(fmt::format("point size clamped to POINTSIZE_MIN {} .. min(POINTSIZE_MAX, MaxPointSize) {}", num(lo), num(hi)));
    if (lo <= hi) {
        op("max", "r11.x", {size, scal(lo)});
        op("min", "oPts.x", {"r11.x", scal(hi)});
    } else {
        // MIN > MAX: the reference gives MAX above MAX, else MIN: (s > max, s <= max, 0) . (max, min, 0)
        const std::string c = vec({hi, lo, 0, 0}, "point size: max, min (min > max)");
        op("slt", "r11.y", {c + ".x", size});
        op("sge", "r11.z", {c + ".x", size});
        op("dp3", "oPts.x", {"r11.yzzz", c});
    }
}

void Generator::texcoords() {
    const uint32_t mask = texcoord_outputs(s_, in_, caps_);
    for (uint32_t st = 0; st < vs::kNumTexcoords; ++st) {
        if (!((mask >> st) & 1u)) continue;
        const TextureStage& ts = s_.stages[st];
        const uint32_t gen = ts.texcoordindex & 0xFFFF0000u, set = ts.texcoordindex & 0xFFFFu;
        const std::string out = fmt::format("oT{}", st);
        if (in_.pretransformed) {
            note(fmt::format("stage {}: texture coordinates {} passed through (pre-transformed vertex)", st, set));
            op("mov", out, {fmt::format("v{}", kDeTexcoord0 + set)});
            continue;
        }
        const uint32_t count = ts.texturetransformflags & 0xFFu;
        const bool transform = count >= 2;
        const std::string tnote = transform ? fmt::format(", times TEXTURE{} (COUNT{}{})", st, count,
                                                          (ts.texturetransformflags & kTtffProjected) ? "|PROJECTED" : "")
                                            : "";
        const auto matrix_for = [&](uint32_t dim) {
            // the input padded before the matrix ((u,1,0,0), (u,v,1,0), (u,v,w,1), (u,v,w,q)); the
            // fetched register holds (u,0,0,1) and (u,v,0,1), so the rows move to match
            const Matrix& t = s_.texture[st];
            std::vector<Vec4> cols;
            for (int j = 0; j < 4; ++j) {
                Vec4 c = column(t, j);
                if (dim == 1) c = {t.at(0, j), 0, 0, t.at(1, j)};
                else if (dim == 2) c = {t.at(0, j), t.at(1, j), 0, t.at(2, j)};
                cols.push_back(c);
            }
            return fmt::format("c{}", block(cols, fmt::format("TEXTURE{} (rows for {}-D input)", st, dim)));
        };
        if (gen == kTciPassthru) {
            const std::string v = fmt::format("v{}", kDeTexcoord0 + set);
            note(fmt::format("stage {}: texture coordinates {}{}", st, set, tnote));
            if (transform) op("m4x4", out, {v, matrix_for(in_.components[kDeTexcoord0 + set])});
            else op("mov", out, {v});
            continue;
        }
        std::string g;
        if (gen == kTciCameraSpaceNormal) {
            note(fmt::format("stage {}: CAMERASPACENORMAL (N, 1){}", st, tnote));
            g = "r1";
            if (transform && !nc_w1_) {
                op("mov", "r1.w", {one()});
                nc_w1_ = true;
            }
        } else if (gen == kTciCameraSpacePosition) {
            note(fmt::format("stage {}: CAMERASPACEPOSITION (P, 1){}", st, tnote));
            g = "r0";
            if (transform && !pc_w1_) {
                op("mov", "r0.w", {one()});
                pc_w1_ = true;
            }
        } else {
            note(fmt::format("stage {}: CAMERASPACEREFLECTIONVECTOR R = E - 2 (N.E) N, E = norm(P) (LOCALVIEWER "
                             "or not){}",
                             st, tnote));
            const std::string dst = transform ? "r10.xyz" : out + ".xyz";
            viewer();  // E = -V
            op("dp3", "r10.w", {"r1", "-r2"});
            op("mul", "r10.w", {"r10.w", scal(-2.0f)});
            op("mad", dst, {"r1", "r10.w", "-r2"});
            if (transform) {
                op("mov", "r10.w", {one()});
                op("m4x4", out, {"r10", matrix_for(3)});
            } else {
                op("mov", out + ".w", {one()});
            }
            continue;
        }
        if (transform) {
            op("m4x4", out, {g, matrix_for(3)});
        } else if (g == "r1" ? nc_w1_ : pc_w1_) {
            op("mov", out, {g});
        } else {
            op("mov", out + ".xyz", {g});
            op("mov", out + ".w", {one()});
        }
    }
}

FfProgram Generator::run() {
    const RenderStates& rs = s_.rs;
    note("fixed-function vertex shader, generated from the device state (vpsim ff_compile)");
    if (in_.pretransformed) {
        note("pre-transformed vertex (XYZRHW): the position passes through, no transform or lighting");
        op("mov", "oPos", {"v0"});
        unlit_colours();
        if (rs.fogenable) {
            note("oFog = the specular alpha");
            op("mov", "oFog.x", {in_.has(kDeSpecular) ? "v6.w" : zero()});
        }
        if (writes_point_size(s_, in_)) point_size();
        texcoords();
    } else {
        // What the equations need from camera space.
        bool any_local_light = false, any_light_term = false;
        const bool lit = lighting();
        if (lit)
            for (const auto& [index, slot] : s_.lights)
                if (slot.enabled) {
                    any_light_term = true;
                    if (slot.light.type != LightType::Directional) any_local_light = true;
                }
        const bool has_normal = in_.has(kDeNormal);
        bool tex_pos = false, tex_normal = false;
        const uint32_t tmask = texcoord_outputs(s_, in_, caps_);
        for (uint32_t st = 0; st < vs::kNumTexcoords; ++st) {
            if (!((tmask >> st) & 1u)) continue;
            const uint32_t gen = s_.stages[st].texcoordindex & 0xFFFF0000u;
            if (gen == kTciCameraSpacePosition) tex_pos = true;
            if (gen == kTciCameraSpaceNormal) tex_normal = true;
            if (gen == kTciCameraSpaceReflectionVector) tex_normal = tex_pos = true;
        }
        const bool fog_on = vertex_fog();
        const bool pts = writes_point_size(s_, in_);
        const bool light_positions = any_local_light || (lit && rs.specularenable && rs.localviewer && any_light_term && has_normal);
        object_ = lit && any_light_term && has_normal && !tex_normal && object_space_exact(light_positions);
        if (object_) note("lighting in object space: the lights moved there on the CPU (exact for this world-view matrix)");
        const bool need_pc = (light_positions && !object_) || (fog_on && rs.rangefogenable) ||
                             (pts && rs.pointscaleenable) || tex_pos;
        const bool need_pz = fog_on && !rs.rangefogenable;
        const bool need_nc = (lit && any_light_term && has_normal) || tex_normal;
        position_and_normal(need_pc, need_pz, need_nc);
        if (lit) {
            lighting_colours(has_normal);
            clamp_diffuse();
            fold_alpha("oD0", ".y");
            fold_alpha("oD1", ".z");
        }
        else unlit_colours();
        fog();
        if (pts) point_size();
        texcoords();
    }

    // ---- pack into instruction words, assemble, count, check the limits
    // Each comment stays with the operation after it; the packing moves operations (ff_schedule.h).
    std::vector<AsmOp> ops;
    std::vector<std::vector<std::string>> notes_before;
    std::vector<std::string> pending;
    for (const Line& l : lines_) {
        if (!l.is_op) {
            pending.push_back(l.text);
            continue;
        }
        ops.push_back(AsmOp{l.op.name, l.op.dst, l.op.src});
        notes_before.push_back(std::move(pending));
        pending.clear();
    }
    const Packing packing = pack(ops);
    std::ostringstream text;
    text << "vs.1.1\n";
    uint32_t listed = 0;
    for (size_t k = 0; k < packing.order.size(); ++k) {
        const size_t i = packing.order[k];
        for (const std::string& t : notes_before[i]) text << "; " << t << "\n";
        ++listed;
        text << "    " << ops[i].name << " " << ops[i].dst;
        for (const std::string& s : ops[i].src) text << ", " << s;
        text << (packing.joins[k] ? "  ; the same word as the line above\n" : "\n");
    }
    for (const std::string& t : pending) text << "; " << t << "\n";
    if (consts_.size() > const_count_)
        throw FfError(fmt::format("the fixed-function program needs {} constant registers but the device has {} "
                                  "(vs.1.1 c0..c{}){}",
                                  consts_.size(), const_count_, const_count_ - 1,
                                  rs.indexedvertexblendenable && blend_weights(rs.vertexblend) >= 0
                                      ? fmt::format(": indexed vertex blending keeps MaxVertexBlendMatrixIndex + 1 = {} "
                                                    "world-view matrices of 3 registers each",
                                                    std::min<uint32_t>(caps_.max_vertex_blend_matrix_index, 255) + 1)
                                      : ""));
    FfProgram prog;
    prog.assembly = text.str();
    const uint32_t asm_consts = const_count_;
    try {
        prog.shader = vs::shader_from_assembly(prog.assembly, "fixed-function", asm_consts);
    } catch (const vs::AsmError& e) {
        throw std::logic_error(std::string("ff_compile generated assembly the assembler refuses (a bug): ") + e.what() +
                               "\n" + prog.assembly);
    }
    const vs::Program decoded = vs::decode_bytecode(prog.shader.bytecode);
    const vs::Profile profile = vs::Profile::d3d8();
    prog.instructions = uint32_t(decoded.code.size());
    for (const vs::Instruction& ins : decoded.code) prog.slots += uint32_t(profile.slots(ins.opcode));
    prog.words = packing.words;
    // The driver's microcode is bounded by the engine's program memory, not by vs.1.1's 128 slots.
    if (prog.words > caps_.program_words)
        throw FfError(fmt::format("the fixed-function program for this state needs {} instruction words ({} "
                                  "instructions, {} slots) but the device's program memory holds {} "
                                  "(fixed_function.program_words)",
                                  prog.words, prog.instructions, prog.slots, caps_.program_words));
    vs::Profile check = ff_profile(profile);
    check.const_count = asm_consts;
    const vs::Validation val = vs::validate(decoded, check);
    if (!val.valid || !val.diagnostics.empty() || listed != prog.instructions) {
        std::string msg = "ff_compile generated an invalid program (a bug):";
        for (const vs::Diagnostic& d : val.diagnostics) msg += "\n  " + vs::to_string(d);
        throw std::logic_error(msg + "\n" + prog.assembly);
    }
    prog.outputs_written = val.info.outputs_written;
    if (bool(prog.outputs_written & vs::kOutD1) != writes_specular(s_, in_))
        throw std::logic_error("ff_compile: oD1 written against writes_specular() (a bug)\n" + prog.assembly);
    for (size_t i = 0; i < consts_.size(); ++i) prog.constants.push_back({uint32_t(i), consts_[i]});
    prog.constant_notes = const_notes_;

    prog.input_map.fill(-1);
    for (uint32_t r = 0; r < vs::kNumInputs; ++r)
        if ((val.info.input_reads >> r) & 1u) prog.input_map[r] = int8_t(r);
    if (!normal2_reg_.empty()) {
        const int r = std::stoi(normal2_reg_.substr(1));
        if (!((val.info.input_reads >> r) & 1u)) throw std::logic_error("ff_compile: NORMAL2's register is not read");
        prog.input_map[size_t(r)] = -1;
        prog.input_map[kDeNormal2] = int8_t(r);
    }
    return prog;
}

}  // namespace

vs::Profile ff_profile(const vs::Profile& base) {
    vs::Profile p = base;
    p.max_slots = std::numeric_limits<uint32_t>::max();
    return p;
}

FfProgram compile(const FfState& state, const FfInputs& inputs, const Caps& caps, uint32_t const_count,
                  vs::Profile::OutputDefaults outputs) {
    check_drawable(state, inputs, caps);
    Generator g(state, inputs, caps, const_count, outputs);
    return g.run();
}

std::string format_program(const FfProgram& p) {
    std::ostringstream os;
    os << p.assembly;
    os << "; constants:\n";
    for (size_t i = 0; i < p.constants.size(); ++i)
        os << fmt::format(";   c{} = {}{}\n", p.constants[i].first, vec_text(p.constants[i].second),
                          i < p.constant_notes.size() ? "  " + p.constant_notes[i] : "");
    os << "; inputs:";
    bool any = false;
    static const char* const names[kNumDe] = {"POSITION", "BLENDWEIGHT", "BLENDINDICES", "NORMAL", "PSIZE", "DIFFUSE",
                                              "SPECULAR", "TEXCOORD0", "TEXCOORD1", "TEXCOORD2", "TEXCOORD3",
                                              "TEXCOORD4", "TEXCOORD5", "TEXCOORD6", "TEXCOORD7", "POSITION2", "NORMAL2"};
    for (uint32_t r = 0; r < kNumDe; ++r)
        if (p.input_map[r] >= 0) {
            os << fmt::format(" {}=v{}", names[r], p.input_map[r]);
            any = true;
        }
    if (!any) os << " none";
    os << "\n";
    os << fmt::format("; {} instructions, {} slots, {} instruction words\n", p.instructions, p.slots, p.words);
    return os.str();
}

}  // namespace vpsim::ff

// The golden D3D8 primitive tessellator: patch descriptions, the tessellation profile (vpsim's
// numbered choices of docs/spec/patches.md, each an option with the spec's default) and
// the error type. The model and every choice are described in docs/tessellation.md.
#pragma once

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace vpsim::tess {

// D3DBASISTYPE and D3DORDERTYPE (the order is really the degree).
enum class Basis : uint32_t { Bezier = 0, BSpline = 1, Interpolate = 2 };
enum class Order : uint32_t { Linear = 1, Quadratic = 2, Cubic = 3, Quintic = 5 };
// D3DRS_PATCHEDGESTYLE.
enum class EdgeStyle : uint32_t { Discrete = 0, Continuous = 1 };

const char* basis_name(Basis b);  // "BEZIER", "BSPLINE", "INTERPOLATE", "?"
const char* order_name(Order o);  // "LINEAR", "QUADRATIC", "CUBIC", "QUINTIC", "?"

// D3DRECTPATCH_INFO: all offsets and sizes count vertices.
struct RectPatchInfo {
    uint32_t start_vertex_offset_width = 0;
    uint32_t start_vertex_offset_height = 0;
    uint32_t width = 0;
    uint32_t height = 0;
    uint32_t stride = 0;
    Basis basis = Basis::Bezier;
    Order order = Order::Cubic;
};
// D3DTRIPATCH_INFO.
struct TriPatchInfo {
    uint32_t start_vertex_offset = 0;
    uint32_t num_vertices = 0;
    Basis basis = Basis::Bezier;
    Order order = Order::Cubic;
};
// pNumSegs: rect [0] top, [1] right, [2] bottom, [3] left; tri [0] edge 0->9, [1] 9->6, [2] 6->0.
using RectSegments = std::array<float, 4>;
using TriSegments = std::array<float, 3>;

// The render states of a patch draw (D3DRS_PATCHEDGESTYLE, D3DRS_PATCHSEGMENTS).
struct PatchState {
    EdgeStyle edge_style = EdgeStyle::Discrete;
    float patch_segments = 1.0f;  // used on every edge when pNumSegs is NULL
};
// The N-patch render states (D3DRS_PATCHSEGMENTS, POSITIONORDER, NORMALORDER).
struct NPatchState {
    float segments = 1.0f;                  // N-patches are on when > 1.0
    Order position_order = Order::Cubic;    // LINEAR or CUBIC
    Order normal_order = Order::Linear;      // LINEAR or QUADRATIC
    EdgeStyle edge_style = EdgeStyle::Discrete;
};

// vpsim's choices where the sources are silent (spec "choices" 1..10), defaults as specified.
struct TessProfile {
    // 1. Segment count per edge: trunc(segs) (or ceil), clamped to [1, max_segments].
    enum class Rounding { Truncate, Ceil } rounding = Rounding::Truncate;
    uint32_t max_segments = 64;
    // Not a choice of the sources but a resource limit (rule T13): the vertices one patch draw
    // (or one N-patch draw, all its triangles) may generate, checked before anything is
    // allocated. 131072 vertices of 16 registers take 32 MiB.
    uint32_t max_vertices = 131072;
    // 2. Edges whose count differs from the interior get a transition strip. false: every edge
    //    takes the interior count (the larger of its opposite pair), no transitions.
    bool transitions = true;
    // 3. Continuous edge style: tessellated as discrete with round-up (reported as approximated).
    //    false: continuous is tessellated exactly like discrete (the profile's rounding).
    bool continuous_round_up = true;
    // 4. Triangulation winding, seen with the first control row on top (or the tri apex on top).
    enum class Winding { Clockwise, CounterClockwise } winding = Winding::Clockwise;
    // 5. Catmull-Rom end spans: reflected phantom points 2*P0 - P1 (or duplicated end points).
    enum class CatmullRomEnds { Reflect, Duplicate } catmull_rom_ends = CatmullRomEnds::Reflect;
    // 6. TESSNORMAL = dP/du x dP/dv, normalised; degenerate samples take the nearest
    //    non-degenerate sample's normal.
    bool normal_normalize = true;
    bool normal_flip = false;
    bool normal_degenerate_fallback = true;
    double normal_degenerate_eps = 1e-12;  // |n|^2 <= eps * |Pu|^2 * |Pv|^2 is degenerate
    // 7. TESSUV allowed on tri patches.
    bool tessuv_on_tri = true;
    // 8. Attributes are converted to float before interpolation, never clamped. The constant
    //    components of the expansion (FLOAT1/2/3, SHORT2: z = 0, w = 1) are set afterwards, not
    //    interpolated (true: interpolated like the others, so w may be 1 +- 1 ulp).
    bool interpolate_constant_components = false;
    // 9. N-patch registers and renormalisation.
    uint32_t npatch_position_reg = 0;
    uint32_t npatch_normal_reg = 3;
    bool npatch_renormalize = true;
    // 10. Device caps used by validation.
    bool quintic_cap = true;  // D3DDEVCAPS_QUINTICRTPATCHES
};

// Sets one profile option from text ("key=value"), e.g. "rounding=ceil", "winding=ccw",
// "normal-flip=true"; throws std::invalid_argument naming the valid keys and values.
void set_tess_option(TessProfile& p, const std::string& key_equals_value);
const char* tess_profile_help();  // every key with its values, the default first

// A validation error of choice 10 (and the handle rules): nothing is drawn. `rule` is a stable
// id "T1".."T13" (docs/tessellation.md, "Validation rules").
// The most control points a rect patch may have (rule T13): 256 x 256.
constexpr uint64_t kMaxControlPoints = 65536;

struct TessError : std::runtime_error {
    TessError(std::string rule, const std::string& message);
    std::string rule;
};
// The rule's short name ("T2" -> "patch-size").
const char* tess_rule_name(const std::string& rule);

// Choice 1 (and 3): the integer segment count of one edge. `warning` (may be null) receives
// a message when the value was NaN or < 1; `approximated` (may be null) is set for the
// continuous style.
uint32_t segment_count(float segs, EdgeStyle style, const TessProfile& profile, std::string* warning = nullptr,
                       bool* approximated = nullptr);

}  // namespace vpsim::tess

// The functional executor of a scene: runs its commands in order with the golden model and
// returns, per draw, the shaded vertices in draw order (one VertexOutputs per vertex reference,
// D3D8 primitive assembly order) — the values the timing model must reproduce bit for bit.
//
// Shading goes through a ShadeFn: reference_shade() (fetch_vertex + execute_reference, in the
// golden library) or fast_shade() (model/scene/fast_shade.h: run_fast_fetch, in the vpsim_fast
// library). Both give the same bits.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/scene/scene.h"
#include "model/scene/scene_machine.h"
#include "model/vs/vs_create.h"
#include "model/vs/vs_fetch.h"

#include <functional>
#include <memory>

namespace vpsim::scene {

// What a draw shades with.
struct ShadeState {
    const vs::CreatedShader* shader = nullptr;  // valid, with a program
    const vs::Profile* profile = nullptr;
    const vs::Streams* streams = nullptr;
    const vs::Constants* constants = nullptr;
    // Tessellated draws: the generated vertices' registers (indices index them), else null.
    const std::vector<std::array<vs::Vec4, vs::kNumInputs>>* generated = nullptr;
};
// Shades the vertices `indices[0..n)` (sorted ascending, distinct): out[i] for indices[i].
// Throws vs::FetchError when a vertex cannot be fetched.
using ShadeFn = std::function<void(const ShadeState&, const uint32_t* indices, size_t n, vs::VertexOutputs* out)>;
ShadeFn reference_shade();

struct DrawResult {
    size_t command = 0;     // index in Scene::commands
    std::string pointer;    // "/commands/7"
    bool indexed = false;
    PrimitiveType type = PrimitiveType::TriangleList;
    uint32_t primitives = 0;
    uint64_t references = 0;                 // vertex references (indices read), draw order
    std::vector<uint32_t> indices;           // vertex index of each reference (base_vertex added), draw order
    std::vector<vs::VertexOutputs> vertices; // one per reference, draw order (Keep::Counts: both empty)
    uint32_t unique_vertices = 0;            // distinct indices (each shaded once)
    uint32_t outputs_written = 0;            // the shader's vs::kOut* bits
    std::string shader;                      // its name ("...: fixed function (N instructions)")
    std::shared_ptr<const ff::FfProgram> ff_program;  // fixed-function draws: the program they ran
    std::shared_ptr<const Generated> generated;  // tessellated draws (indices are generated vertices)
    // Software-processed draws: the CPU's work, and the pre-transformed vertices the draw read.
    std::shared_ptr<const SoftwareDraw> software;
};

struct FunctionalResult {
    std::vector<DrawResult> draws;
    std::vector<std::string> warnings;  // assembler warnings, declaration/shader warnings
};

// Throws SceneError naming the failing command's JSON pointer (invalid shader, unbound or too
// narrow stream, index or vertex out of range, draw without a shader ...).
// `shade` defaults to reference_shade().
// `caps`: the device's fixed-function caps (a fixed-function draw beyond them is refused).
FunctionalResult run_functional(const Scene& scene, const vs::Profile& profile, const ShadeFn& shade = {},
                                const tess::TessProfile& tess_profile = {}, const ff::Caps& caps = {});

// What run_functional_each keeps of each draw.
enum class Keep {
    Vertices,  // DrawResult::indices and ::vertices, one per reference (what run_functional returns)
    // Neither: the draw's distinct vertices are shaded in ascending blocks of kShadeBlock and dropped
    // (the same vertices shaded, the same first error), so memory does not grow with the draw's
    // references: the distinct indices are a bitmap over their range, or a sorted copy of the
    // draw's indices (4 bytes a reference, the size of its index buffer) when that is smaller.
    Counts,
};
constexpr size_t kShadeBlock = 4096;

// As run_functional, but each draw goes to `sink` as soon as it is shaded and is not kept; returns
// the warnings.
std::vector<std::string> run_functional_each(const Scene& scene, const vs::Profile& profile, const ShadeFn& shade,
                                             const tess::TessProfile& tess_profile, const ff::Caps& caps, Keep keep,
                                             const std::function<void(DrawResult&&)>& sink);

}  // namespace vpsim::scene

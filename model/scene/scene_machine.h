// The D3D8 command semantics of a scene, shared by the functional executor (functional.h) and
// the timing model's command front end (model/sc/command_front_end.h): shader creation with
// the runtime's checks, the bound shader, streams and indices, and draw set-up with every index
// checked. Constant writes are returned, not applied: the functional executor applies them at
// once, the timing model sends them through the constant memory loader.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/ff/ff_compile.h"
#include "model/ff/ff_state.h"
#include "model/scene/program_cache.h"
#include "model/scene/scene.h"
#include "model/vs/vs_create.h"
#include "model/tess/npatch.h"
#include "model/tess/patch_cache.h"
#include "model/vs/vs_fetch.h"

#include <array>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <type_traits>
#include <vector>

namespace vpsim::scene {

// Constant registers written by one command, in order.
struct ConstantWrite {
    uint32_t reg = 0;
    vs::Vec4 value{};
};

// The vertices a tessellator generated for a draw (a rect or tri patch, or an N-patched triangle
// draw) and the triangle list over them: the draw shades these registers instead of fetching.
struct Generated {
    enum class Kind : uint8_t { RectPatch, TriPatch, NPatch } kind = Kind::RectPatch;
    std::vector<tess::Registers> vertices;  // v0..v15 of each generated vertex
    std::vector<uint32_t> indices;          // 3 per triangle, into `vertices`
    uint32_t control_points = 0;            // read per patch (N-patch: the 3 corners)
    uint32_t support = 0;                   // control points each generated vertex is evaluated over
    uint32_t patches = 1;                   // patches (N-patch: input triangles)
    uint32_t evaluated_registers = 0;       // registers evaluated over the control points
    bool handle_hit = false;                // a cached handle's control points were used
    bool reused = false;                    // ... and its tessellation, unchanged
    bool approximated = false;              // continuous edge style (choice 3)
    std::array<uint32_t, 4> segments{};     // per edge
    uint32_t degenerate_normals = 0;
    std::string what;                       // "DrawRectPatch BEZIER CUBIC 4x4" ...
};

// A draw the runtime processed on the CPU (software vertex processing): the vertices it
// transformed, written as the pre-transformed vertices the hardware reads (D3DCOLOR colours, the
// fog factor in the specular alpha), the draw's indices over them, and the pass-through program
// the hardware runs. The DrawSetup's streams, index buffer and shader point into it.
struct SoftwareDraw {
    Buffer vertices;  // the CPU's outputs, one pre-transformed vertex per distinct vertex processed
    Buffer indices;   // INDEX32, into `vertices` (indexed and generated draws)
    std::unique_ptr<vs::CreatedShader> shader;  // the hardware's pass-through program and its declaration
    uint64_t processed = 0;          // vertices processed on the CPU
    uint32_t program_slots = 0;      // the application's program's slots per vertex (0: fixed function)
    std::string processed_by;        // "fixed function" or the shader's name
};

// A draw, checked and ready to shade: reference k (draw order) is vertex `vertex(k)`.
struct DrawSetup {
    size_t command = 0;
    std::string pointer;
    bool indexed = false;
    PrimitiveType type = PrimitiveType::TriangleList;
    uint32_t primitives = 0;
    uint64_t refs = 0;  // vertex references (= indices read)
    const vs::CreatedShader* shader = nullptr;
    std::string shader_name;
    vs::Streams streams{};
    const Buffer* index_buffer = nullptr;  // indexed draws
    std::string index_name;
    // The versions of buffers changed by UpdateBuffer that the draw's streams and indices point
    // into, kept alive while the draw is in flight (a later update then writes a copy).
    std::vector<std::shared_ptr<const Buffer>> written;
    uint32_t start = 0;        // start_index (indexed) or start_vertex
    uint32_t base_vertex = 0;  // indexed draws

    std::shared_ptr<const Generated> generated;  // tessellated draws: references index its vertices

    // Fixed-function draws (the shader has no function): the inputs and a snapshot of the state as
    // the draw was issued (shared between draws while the state does not change).
    bool fixed_function = false;
    ff::FfInputs ff_inputs;
    std::shared_ptr<const ff::FfState> ff_state;
    // ... and the program it runs (ff::compile of the state; `shader` is then the generated program
    // created with the draw's declaration, `shader_name` ends "fixed function (N instructions)").
    std::shared_ptr<const ff::FfProgram> ff_program;

    // Constant writes the driver makes before the draw, in order (docs/fixed-function.md, "Constant
    // memory shared with programs"): for a fixed-function draw its program's constants, for a
    // programmed draw the application's values of the registers a fixed-function draw overwrote;
    // only registers whose value changes.
    std::vector<ConstantWrite> constant_writes;

    // Software vertex processing (a SOFTWARE device, or a MIXED one with
    // D3DRS_SOFTWAREVERTEXPROCESSING TRUE): what the CPU did; the hardware sees a pre-transformed draw.
    std::shared_ptr<const SoftwareDraw> software;

    // Distinct vertices the draw references (for ATVR).
    uint64_t unique_vertices() const;

    uint32_t vertex(uint64_t k) const {
        if (generated) return generated->indices[k];
        return indexed ? uint32_t(index_buffer->index(start + k) + base_vertex) : uint32_t(start + k);
    }
};

// The fixed-function state commands (SceneMachine::apply_ff_state applies them).
template <class T>
inline constexpr bool is_ff_state_command_v =
    std::is_same_v<T, SetTransform> || std::is_same_v<T, MultiplyTransform> || std::is_same_v<T, SetLight> ||
    std::is_same_v<T, LightEnable> || std::is_same_v<T, SetViewport> || std::is_same_v<T, SetMaterial> ||
    std::is_same_v<T, SetTextureStageState>;

class SceneMachine {
public:
    // `profile.const_count` is replaced by the scene's. `caps`: the device's fixed-function caps
    // (the preset's "fixed_function" parameters).
    SceneMachine(const Scene& s, const vs::Profile& profile, const tess::TessProfile& tess_profile = {},
                 const ff::Caps& caps = {});

    const Scene& scene() const { return s_; }
    const vs::Profile& profile() const { return profile_; }
    const std::vector<std::string>& warnings() const { return warnings_; }
    const ff::Caps& caps() const { return caps_; }
    // Created shaders and fixed-function programs from (and into) `cache`, shared with other
    // machines of the same profile and caps (model/scene/program_cache.h); null: none.
    void share_programs(std::shared_ptr<ProgramCache> cache) { programs_ = std::move(cache); }
    // Whether the next draw's vertices are processed on the CPU.
    bool software_now() const {
        return s_.vertex_processing == VertexProcessing::Software ||
               (s_.vertex_processing == VertexProcessing::Mixed && software_state_);
    }
    // Fixed-function programs compiled so far (a draw whose state and shader equal an earlier
    // draw's reuses its program).
    uint64_t ff_compiles() const { return ff_compiles_; }

    // Each throws SceneError naming `ptr` (the command's JSON pointer) and the rule broken.
    const vs::CreatedShader& create(const std::string& ptr, const CreateVertexShader& c);
    // Returns the declaration's CONST vectors (the shader's defs included), in order.
    std::vector<ConstantWrite> set_shader(const std::string& ptr, const SetVertexShader& c);
    std::vector<ConstantWrite> set_constants(const std::string& ptr, const SetVertexShaderConstant& c) const;
    void set_stream(const std::string& ptr, const SetStreamSource& c);
    void set_indices(const std::string& ptr, const SetIndices& c);
    // UpdateBuffer: the buffer's bytes from now on, for the streams and indices bound to it too.
    // The scene itself is not changed: the machine keeps the buffer's current bytes, written in
    // place unless a draw still holds them (DrawSetup::written), then into a copy.
    void update_buffer(const std::string& ptr, const UpdateBuffer& c);
    // The bytes of the scene's own buffer when stream `s` is bound to a buffer that UpdateBuffer
    // changed and reads `data` (its current version), else nullptr: the timing model gives every
    // version of a buffer the buffer's one modelled address.
    const uint8_t* scene_bytes(uint32_t s, const uint8_t* data) const;
    DrawSetup draw(size_t command, const std::string& ptr, const DrawPrimitive& c) const;
    DrawSetup draw(size_t command, const std::string& ptr, const DrawIndexedPrimitive& c) const;
    // Patches: validated, tessellated (TessError -> SceneError naming the rule "Tn").
    DrawSetup draw(size_t command, const std::string& ptr, const DrawRectPatch& c);
    DrawSetup draw(size_t command, const std::string& ptr, const DrawTriPatch& c);
    void delete_patch(const std::string& ptr, const DeletePatch& c);
    // Tessellator states drive the patch state; fixed-function states go to ff_state().rs.
    void set_render_state(const std::string& ptr, const SetRenderState& c);

    // ---- Fixed-function state (model/ff) ----
    void set_transform(const std::string& ptr, const SetTransform& c);
    void multiply_transform(const std::string& ptr, const MultiplyTransform& c);  // M x current
    void set_light(const std::string& ptr, const SetLight& c);                    // keeps the enabled flag
    void light_enable(const std::string& ptr, const LightEnable& c);  // a light never set: D3D's default light
    void set_viewport(const std::string& ptr, const SetViewport& c);
    void set_material(const std::string& ptr, const SetMaterial& c);
    void set_texture_stage_state(const std::string& ptr, const SetTextureStageState& c);
    // Applies `c` when it is one of the fixed-function state commands above (SetTransform ...
    // SetTextureStageState) and returns true; false for any other command (nothing done). The one
    // dispatch of those seven commands for the executors and tests.
    bool apply_ff_state(const std::string& ptr, const CommandBody& c);
    const ff::FfState& ff_state() const { return ff_; }
    // A copy of ff_state() that stays as it is: the same object until a state command changes the
    // state (what a fixed-function DrawSetup carries).
    std::shared_ptr<const ff::FfState> ff_snapshot() const;
    // The current shader is fixed function: SetVertexShader(FVF), or a shader created without a function.
    bool fixed_function() const { return current_ && current_->fixed_function; }
    // Its inputs: the FVF's layout, or the declaration's REG (and tessellator) registers with their
    // component counts (model/ff/fvf.h). Meaningful while fixed_function().
    const ff::FfInputs& ff_inputs() const { return ff_inputs_; }
    // The FVF code of the current shader (none: a created shader).
    std::optional<uint32_t> current_fvf() const { return current_fvf_; }
    const tess::PatchCache& patch_cache() const { return patches_; }
    bool npatches_on() const { return npatch_.segments > 1.0f; }

    // A FetchError met while shading `d`, as the SceneError both executors report.
    SceneError fetch_error(const DrawSetup& d, const vs::FetchError& e) const;

private:
    [[noreturn]] void fail(const std::string& ptr, const std::string& msg) const { throw s_.error(ptr, msg); }
    void check_shader(const std::string& ptr, bool streams = true) const;
    DrawSetup start(size_t command, const std::string& ptr, bool indexed, PrimitiveType t, uint32_t prims) const;
    // A triangle draw with N-patches on becomes a generated draw.
    void npatch(DrawSetup& d) const;
    void check_vertex_range(const DrawSetup& d) const;
    // Fixed-function draws (model/scene/ff_draw.cpp): the program and its shader, then the
    // driver's constant writes of every draw (after everything else about the draw is checked).
    void ff_program(DrawSetup& d) const;
    void driver_constants(DrawSetup& d) const;
    void check_ff_vertices(const DrawSetup& d) const;  // indexed blending: every index within the cap
    // Software vertex processing (model/scene/software_vp.cpp): runs the draw's vertices through the
    // reference processor or the interpreter and turns the draw into the pre-transformed draw the
    // hardware sees.
    void software_draw(DrawSetup& d) const;
    // A draw's last step, once everything else is checked: the CPU's work (software vertex
    // processing) or the driver's constant writes.
    void finish(DrawSetup& d) const { software_now() ? software_draw(d) : driver_constants(d); }
    void note_writes(const std::vector<ConstantWrite>& w) const;  // the application's writes
    DrawSetup generated_draw(size_t command, const std::string& ptr, Generated g) const;
    template <class Command>
    DrawSetup patch_draw(size_t command, const std::string& ptr, const Command& c);

    const Scene& s_;
    vs::Profile profile_;
    mutable std::vector<std::string> warnings_;
    std::map<std::string, std::unique_ptr<vs::CreatedShader>> shaders_;
    std::vector<std::unique_ptr<vs::CreatedShader>> replaced_;
    const vs::CreatedShader* current_ = nullptr;
    std::string current_name_;
    std::map<uint32_t, std::unique_ptr<vs::CreatedShader>> fvf_shaders_;  // the implicit shader of each FVF used
    std::optional<uint32_t> current_fvf_;
    ff::FfInputs ff_inputs_;
    ff::FfState ff_;
    mutable std::shared_ptr<const ff::FfState> ff_snapshot_;  // of ff_, reset by every state change
    void ff_changed() { ff_snapshot_.reset(); }
    vs::Streams streams_{};
    // UpdateBuffer: the current bytes of each buffer written so far (the scene's own until then);
    // the name each stream is bound to (empty: unbound).
    std::map<std::string, std::shared_ptr<Buffer>> written_;
    std::array<std::string, 16> stream_names_;
    std::array<const Buffer*, 16> stream_scene_{};  // the scene's buffer each stream is bound to
    const Buffer* written_version(const std::string& name) const;  // nullptr: never written
    const Buffer* indices_ = nullptr;
    std::string index_name_;
    uint32_t base_vertex_ = 0;
    tess::TessProfile tess_profile_;
    tess::PatchState patch_state_;
    tess::NPatchState npatch_;
    tess::PatchCache patches_{tess_profile_};

    // ---- Fixed-function programs and the constant memory they share with programs ----
    ff::Caps caps_;
    ff::Caps software_caps_;       // the runtime's caps in software vertex processing
    bool software_state_ = false;  // D3DRS_SOFTWAREVERTEXPROCESSING (MIXED devices)
    std::map<const vs::CreatedShader*, std::vector<uint32_t>> ff_tokens_;  // each fixed-function shader's declaration
    struct FfCached {
        std::shared_ptr<const ff::FfState> state;  // keeps the key's address alive
        std::shared_ptr<const ff::FfProgram> program;
        const vs::CreatedShader* shader = nullptr;
    };
    mutable std::map<std::pair<const ff::FfState*, const vs::CreatedShader*>, FfCached> ff_cache_;
    mutable std::map<std::string, std::unique_ptr<vs::CreatedShader>> ff_shaders_;  // by declaration and program text
    mutable uint64_t ff_compiles_ = 0;
    std::shared_ptr<ProgramCache> programs_;  // share_programs()
    // vs::create_vertex_shader, through programs_ when there is one (`ff`: with ff::ff_profile).
    std::unique_ptr<vs::CreatedShader> create_shader(const std::vector<uint32_t>& tokens, const vs::LoadedShader* fn,
                                                     bool ff) const;
    mutable std::vector<vs::Vec4> app_constants_, device_constants_;  // the driver's shadow copy; constant memory
    mutable std::set<uint32_t> ff_overwritten_;  // registers holding a fixed-function value, not the application's
};

}  // namespace vpsim::scene

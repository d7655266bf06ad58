// vpsim ff-program: the vertex program a scene's fixed-function draws run (docs/fixed-function.md,
// "Fixed function as vertex programs"): the scene's commands run through the scene machine (no
// vertex is shaded) and each fixed-function draw's generated program is printed, commented by
// term, with its constant layout, input registers and instruction and slot counts.
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/ff/ff_compile.h"
#include "model/ff/ff_published.h"
#include "model/scene/scene_machine.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <type_traits>

namespace vpsim::cli {

namespace {

struct FfProgramArgs {
    std::string scene;
    std::optional<uint64_t> draw;
    std::string preset;
    std::vector<std::string> sets;
    bool counts = false;
};

// `--counts`: NVIDIA's published counts beside the programs vpsim builds for the same
// configurations (the preset's program memory applies; its light limit is raised where the
// published row needs more lights, as the row's notes say).
int run_counts(const FfProgramArgs& a) {
    ff::Caps preset;
    try {
        preset = preset_caps(a.preset, a.sets);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim ff-program: %s\n", e.what());
        return 2;
    }
    std::string out = fmt::format("{:<62} {:>6} {:>12} {:>6} {:>6} {:>14}\n", "configuration", "NVIDIA",
                                  "instructions", "slots", "words", "slots / NVIDIA");
    std::string notes;
    for (const ff::PublishedCount& p : ff::published_counts()) {
        ff::Caps caps = preset;
        caps.max_active_lights = std::max(caps.max_active_lights, p.caps.max_active_lights);
        try {
            const ff::FfProgram prog = ff::compile(p.state, p.inputs, caps, 96);
            out += fmt::format("{:<62} {:>6} {:>12} {:>6} {:>6} {:>+13.1f}%\n", p.label, p.instructions,
                               prog.instructions, prog.slots, prog.words,
                               100.0 * (double(prog.slots) / p.instructions - 1.0));
        } catch (const ff::FfError& e) {
            out += fmt::format("{:<62} {:>6} refused: {}\n", p.label, p.instructions, e.what());
        }
        notes += fmt::format("  {}: \"{}\"; vpsim's state: {}\n", p.label, p.published, p.guessed);
    }
    out += "\nNVIDIA counts vertex program instructions, one operation each (a matrix transform is 4 dp4): "
           "compare with slots; words are slots after pairing a scalar-unit operation with a vector one.\n"
           "Source: Tom's Hardware, \"High-Tech And Vertex Juggling - NVIDIA's New GeForce3 GPU\", 27 Feb 2001, "
           "page 9, http://www.tomshardware.com/reviews/high,294-9.html\n" +
           notes;
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

// Runs every command's function up to the last draw wanted; `on_draw(n, setup)` per draw.
template <class F>
void walk(const scene::Scene& sc, const ff::Caps& caps, uint64_t last, F on_draw) {
    scene::SceneMachine m(sc, vs::Profile::d3d8(), {}, caps);
    uint64_t n = 0;
    for (size_t i = 0; i < sc.commands.size() && n <= last; ++i) {
        const scene::Command& c = sc.commands[i];
        std::visit(
            [&](const auto& b) {
                using T = std::decay_t<decltype(b)>;
                const std::string& p = c.pointer;
                if constexpr (std::is_same_v<T, scene::CreateVertexShader>) m.create(p, b);
                else if constexpr (std::is_same_v<T, scene::SetVertexShader>) m.set_shader(p, b);
                else if constexpr (std::is_same_v<T, scene::SetVertexShaderConstant>) m.set_constants(p, b);
                else if constexpr (std::is_same_v<T, scene::SetStreamSource>) m.set_stream(p, b);
                else if constexpr (std::is_same_v<T, scene::SetIndices>) m.set_indices(p, b);
                else if constexpr (std::is_same_v<T, scene::DeletePatch>) m.delete_patch(p, b);
                else if constexpr (std::is_same_v<T, scene::SetRenderState>) m.set_render_state(p, b);
                else if constexpr (std::is_same_v<T, scene::SetTransform>) m.set_transform(p, b);
                else if constexpr (std::is_same_v<T, scene::MultiplyTransform>) m.multiply_transform(p, b);
                else if constexpr (std::is_same_v<T, scene::SetLight>) m.set_light(p, b);
                else if constexpr (std::is_same_v<T, scene::LightEnable>) m.light_enable(p, b);
                else if constexpr (std::is_same_v<T, scene::SetViewport>) m.set_viewport(p, b);
                else if constexpr (std::is_same_v<T, scene::SetMaterial>) m.set_material(p, b);
                else if constexpr (std::is_same_v<T, scene::SetTextureStageState>) m.set_texture_stage_state(p, b);
                else if constexpr (std::is_same_v<T, scene::UpdateBuffer>) m.update_buffer(p, b);
                else on_draw(n++, m.draw(i, p, b));  // the draws
            },
            c.body);
    }
}

int run_ff_program(const FfProgramArgs& a) {
    if (a.counts && (!a.scene.empty() || a.draw)) {
        std::fprintf(stderr, "vpsim ff-program: --counts compiles its own configurations: it takes no SCENE or --draw\n");
        return 2;
    }
    if (a.counts) return run_counts(a);
    if (a.scene.empty()) {
        std::fprintf(stderr, "vpsim ff-program: a SCENE is required (or --counts)\n");
        return 2;
    }
    LoadedScene ls;
    ff::Caps caps;
    try {
        ls = load_run_scene(a.scene);
        caps = preset_caps(a.preset, a.sets);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim ff-program: %s\n", e.what());
        return 2;
    }
    const scene::Scene& sc = ls.scene;
    std::string out;
    uint64_t draws = 0, ff_draws = 0;
    std::string wanted_error;
    try {
        walk(sc, caps, a.draw ? *a.draw : UINT64_MAX, [&](uint64_t n, const scene::DrawSetup& d) {
            ++draws;
            if (a.draw && n != *a.draw) return;
            if (!d.fixed_function) {
                if (a.draw)
                    wanted_error = fmt::format("{}: draw {} ({} {}) is not fixed function: its shader is \"{}\"",
                                               sc.name, n, d.pointer, scene::command_name(sc.commands[d.command].body),
                                               d.shader_name);
                return;
            }
            ++ff_draws;
            out += fmt::format("; draw {}: {} {}, {}\n", n, d.pointer, scene::command_name(sc.commands[d.command].body),
                               d.shader_name);
            out += ff::format_program(*d.ff_program);
            out += "\n";
        });
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim ff-program: %s\n", e.what());
        return 1;
    }
    if (!wanted_error.empty()) {
        std::fprintf(stderr, "vpsim ff-program: %s\n", wanted_error.c_str());
        return 2;
    }
    if (a.draw && draws <= *a.draw) {
        std::fprintf(stderr, "vpsim ff-program: %s: no draw %llu: the scene has %llu draws (0..%llu)\n",
                     sc.name.c_str(), (unsigned long long)*a.draw, (unsigned long long)draws,
                     (unsigned long long)(draws ? draws - 1 : 0));
        return 2;
    }
    if (ff_draws == 0) {
        std::fprintf(stderr, "vpsim ff-program: %s: none of its %llu draws is fixed function\n", sc.name.c_str(),
                     (unsigned long long)draws);
        return 2;
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace

void add_ff_program_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<FfProgramArgs>();
    CLI::App* c = app.add_subcommand(
        "ff-program",
        "Print the vs.1.1 program each fixed-function draw of a scene runs (the driver's compilation of its "
        "fixed-function state, docs/fixed-function.md), commented by term, with its constants, input registers and "
        "instruction, slot and word counts.\nExit status: 0 ok, 1 a scene command failed (the draw's state refused, "
        "naming the cap), 2 usage, I/O, malformed scene, no such draw, or a draw that is not fixed function.");
    c->add_option("SCENE", a->scene, "The scene (.json, docs/scenes.md); not with --counts");
    c->add_flag("--counts", a->counts,
                "NVIDIA's published instruction counts for fixed function as vertex programs (7, 18, 126) beside "
                "the programs vpsim builds for those configurations");
    c->add_option("--draw", a->draw, "Only draw N (the scene's draws counted from 0 in command order)");
    c->add_option("--preset", a->preset,
                  "The device's fixed-function caps from this hardware preset (nv20, nv2a, nv25); default: the "
                  "fixed_function parameters' defaults");
    c->add_option("--set", a->sets,
                  "A fixed-function cap after --preset, fixed_function.param=value (repeatable; `vpsim params "
                  "fixed_function`); other units' parameters do not reach the program and are refused");
    c->callback([a, &exit_code] { exit_code = run_ff_program(*a); });
}

}  // namespace vpsim::cli

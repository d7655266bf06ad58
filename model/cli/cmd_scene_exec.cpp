// vpsim scene-exec: run a scene's D3D8 commands with the golden model and print, per draw, a
// summary and (--json) every shaded vertex in draw order (docs/scenes.md).
#include "model/cli/commands.h"
#include "model/cli/run_common.h"
#include "model/cli/vertex_format.h"
#include "model/scene/default_scene.h"
#include "model/scene/fast_shade.h"
#include "model/scene/functional.h"

#include <fmt/format.h>

#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

namespace vpsim::cli {

namespace {

struct SceneExecArgs {
    std::string file;
    bool json = false, reference = false, summary = false, dump_default = false;
    std::vector<std::string> profile, tess_profile;
    std::string preset;
};

int run_scene_exec(const SceneExecArgs& a) {
    if (a.dump_default) {
        const std::string text = scene::default_scene_json().dump(2) + "\n";
        std::fwrite(text.data(), 1, text.size(), stdout);
        return 0;
    }
    scene::Scene sc;
    try {
        sc = a.file.empty() ? scene::default_scene() : scene::load_scene(a.file);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim scene-exec: %s\n", e.what());
        return 2;
    }
    vs::Profile profile = vs::Profile::d3d8();
    for (const auto& kv : a.profile) profile.set(kv);
    tess::TessProfile tess_profile;
    for (const auto& kv : a.tess_profile) tess::set_tess_option(tess_profile, kv);
    ff::Caps caps;
    try {
        caps = preset_caps(a.preset);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim scene-exec: %s\n", e.what());
        return 2;
    }
    // Each draw becomes its text as soon as it is shaded and is dropped: only --json (without
    // --summary) asks for the vertices, and then one draw's are held at a time beside the text.
    const bool vertices = a.json && !a.summary;
    uint64_t draws = 0, refs = 0, prims = 0, unique = 0;
    std::string body;
    auto add_draw = [&](scene::DrawResult&& d) {
        const char* name = scene::command_name(sc.commands[d.command].body);
        if (a.json) {
            body += draw_json_open(draws == 0, {d.command, d.pointer, name, d.shader, pipe::primitive_type_name(d.type),
                                                d.primitives, d.references, d.unique_vertices});
            if (vertices) {
                body += ",\n  \"outputs\": [";
                for (size_t k = 0; k < d.vertices.size(); ++k)
                    body += (k ? ",\n   " : "\n   ") + vertex_json(d.indices[k], d.vertices[k]);
                body += d.vertices.empty() ? "]" : "\n  ]";
            }
            body += "}";
        } else {
            body += fmt::format("  {} {} (shader \"{}\"): {} {}, {} vertices, {} unique{}\n", d.pointer, name, d.shader,
                                d.primitives, pipe::primitive_type_name(d.type), d.references, d.unique_vertices,
                                d.generated ? fmt::format(" (tessellated: {}, {} generated vertices)", d.generated->what,
                                                          d.generated->vertices.size())
                                            : std::string());
        }
        ++draws, refs += d.references, prims += d.primitives, unique += d.unique_vertices;
    };
    std::vector<std::string> warnings;
    try {
        warnings = scene::run_functional_each(sc, profile, a.reference ? scene::reference_shade() : scene::fast_shade(),
                                              tess_profile, caps, vertices ? scene::Keep::Vertices : scene::Keep::Counts,
                                              add_draw);
    } catch (const std::exception& e) {
        std::fprintf(stderr, "vpsim scene-exec: %s\n", e.what());
        return 1;
    }
    for (const auto& w : warnings) std::fprintf(stderr, "%s\n", w.c_str());

    std::string out;
    if (a.json) {
        out = draws_json_open(sc.name, a.reference ? "reference" : "fast") + body +
              draws_json_close(draws, prims, refs, unique);
    } else {
        out = fmt::format("{}: {} draw{}, {}\n", sc.name, draws, draws == 1 ? "" : "s",
                          a.reference ? "reference interpreter" : "fast path") +
              body + fmt::format("  total: {} primitives, {} vertices, {} unique\n", prims, refs, unique);
    }
    std::fwrite(out.data(), 1, out.size(), stdout);
    return 0;
}

}  // namespace

void add_scene_exec_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<SceneExecArgs>();
    CLI::App* c = app.add_subcommand(
        "scene-exec",
        "Run a scene (JSON D3D8 commands, docs/scenes.md) with the golden model and print each draw's vertices, "
        "primitives and unique vertices; no FILE runs the built-in default scene.\nExit status: 0 ok, 1 a command "
        "failed (invalid shader, stream or index problem), 2 usage, I/O or malformed scene, 3 internal error (out of "
        "memory).\nWithout --json (or with --summary) no shaded vertex is kept: memory does not grow with the draws' "
        "vertices (docs/limits.md).");
    c->add_option("FILE", a->file, "The scene (.json); none: the built-in default scene");
    c->add_flag("--json", a->json,
                "Print {\"draws\": [...]} with every shaded vertex of every draw in draw order (the vertex format of "
                "`vpsim exec --json`)");
    c->add_flag("--summary", a->summary, "With --json: the per-draw counts only, no vertices");
    c->add_flag("--reference", a->reference, "Shade with the reference interpreter instead of the fast path");
    c->add_flag("--dump-default", a->dump_default, "Print the default scene's JSON and exit");
    c->add_option("--preset", a->preset,
                  "The device's fixed-function caps from this hardware preset (nv20, nv2a, nv25; `vpsim presets`); "
                  "default: the fixed_function parameters' defaults");
    c->add_option("--profile", a->profile,
                  std::string("Semantics option (repeatable; docs/vs-semantics.md): ") + vs::Profile::option_help())
        ->check(profile_option_check());
    c->add_option("--tess-profile", a->tess_profile,
                  std::string("Tessellation choice (repeatable; docs/tessellation.md): ") + tess::tess_profile_help())
        ->check(tess_option_check());
    c->callback([a, &exit_code] { exit_code = run_scene_exec(*a); });
}

}  // namespace vpsim::cli

// vpsim import: a model file (any format Assimp reads) to a scene that draws it through D3D8's
// fixed function (docs/import.md). The Assimp code is model/import (vpsim_import, linked by the
// CLI only).
#include "model/cli/commands.h"
#include "model/common/printable.h"
#include "model/import/assimp_import.h"
#include "model/import/walled_import.h"

#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

namespace vpsim::cli {

namespace {

struct ImportArgs {
    std::string model, out, order = "file", frame, effect = "fixed-function";
    bool compress = false;
    uint32_t seed = 1, max_blend_index = 0, cache = 24;
    std::optional<double> time;
    bool quiet = false;
    import::ImportLimits limits;
};

int run_import(const ImportArgs& a) {
    import::ImportOptions o;
    o.input = a.model;
    o.output = a.out.empty() ? std::filesystem::path(a.model).stem().string() + ".json" : a.out;
    if (a.order == "file") o.order = import::IndexOrder::File;
    else if (a.order == "optimised" || a.order == "optimized") o.order = import::IndexOrder::Optimised;
    else if (a.order == "random") o.order = import::IndexOrder::Random;
    else {
        std::fprintf(stderr, "vpsim import: %s: --index-order %s: expected file, optimised or random\n", a.model.c_str(),
                     printable(a.order, 200, true).c_str());
        return 2;
    }
    o.seed = a.seed;
    if (a.effect == "skin-shader") o.skin_shader = true;
    else if (a.effect != "fixed-function") {
        std::fprintf(stderr, "vpsim import: %s: --effect %s: expected fixed-function or skin-shader\n", a.model.c_str(),
                     printable(a.effect, 200, true).c_str());
        return 2;
    }
    o.compress = a.compress;
    o.max_blend_index = a.max_blend_index;
    o.cache_size = a.cache;
    o.time = a.time;
    if (!a.frame.empty()) {
        // A or A,B: frame numbers.
        auto num = [&](const std::string& t, uint32_t& out) {
            if (t.empty() || t.size() > 9 || t.find_first_not_of("0123456789") != std::string::npos) return false;
            out = uint32_t(std::stoul(t));
            return true;
        };
        const size_t comma = a.frame.find(',');
        uint32_t f0 = 0, f1 = 0;
        const bool ok = comma == std::string::npos ? num(a.frame, f0)
                                                   : num(a.frame.substr(0, comma), f0) && num(a.frame.substr(comma + 1), f1);
        if (!ok) {
            std::fprintf(stderr, "vpsim import: %s: --frame %s: expected A or A,B (frame numbers)\n", a.model.c_str(),
                         printable(a.frame, 200, true).c_str());
            return 2;
        }
        o.single_frame = comma == std::string::npos;
        o.frames = std::make_pair(f0, o.single_frame ? f0 : f1);
    }
    try {
        const auto rep = import::import_model_walled(o, a.limits);
        if (!a.quiet) std::fputs(import::report_text(rep).c_str(), stderr);
        std::printf("%s\n", o.output.c_str());
        return 0;
    } catch (const import::ImportError& e) {
        std::fprintf(stderr, "vpsim import: %s\n", printable(e.what(), 2000, true).c_str());
        return 2;
    } catch (const std::logic_error& e) {
        std::fprintf(stderr, "vpsim import: internal error: %s (please report the command)\n",
                     printable(e.what(), 2000, true).c_str());
        return 3;
    }
}

}  // namespace

void add_import_command(CLI::App& app, int& exit_code) {
    auto a = std::make_shared<ImportArgs>();
    CLI::App* c = app.add_subcommand(
        "import",
        "Import a model through Assimp (.x, .3ds, .obj, .ply, .dae, .fbx, .md2, .md3, .ms3d, .smd, .b3d, .blend, "
        "Quake 3 maps in .pk3, ...) as a scene drawn by D3D8's fixed function (docs/import.md): vertex and index "
        "buffers in binary side files next to the scene, materials, lights and camera or a default rig, node "
        "transforms, skinned meshes as vertex blending, keyframe models as tweening. Writes SCENE, its side files and "
        "SCENE's stem + .import.json (the import report, also summarised on stderr); prints the scene's path.\n"
        "The model is read in a child process with a time and a memory limit (--time-limit, --memory-limit): a crash, "
        "hang or runaway allocation inside Assimp is an error naming the file and the limit or the signal.\n"
        "Exit status: 0 ok, 2 usage, a file Assimp cannot read or crashes on, no triangles, a value that is not "
        "finite, a limit or a bad option value (nothing written), 3 an internal error.");
    c->add_option("MODEL", a->model, "The model file")->required();
    c->add_option("-o,--out", a->out, "The scene to write (default: the model's name with .json, in the current directory)");
    c->add_option("--index-order", a->order,
                  "file (the file's triangle order, default), optimised (meshoptimizer's meshopt_optimizeVertexCache) or "
                  "random (Fisher-Yates with mt19937(--seed)), per draw");
    c->add_option("--seed", a->seed, "The seed of --index-order random (default 1)");
    c->add_option("--max-blend-index", a->max_blend_index,
                  "Skinned meshes: 0 (default, the presets' MaxVertexBlendMatrixIndex) = non-indexed vertex blending in "
                  "subsets of at most 4 bones; 2..255 = indexed vertex blending with palettes of N + 1 matrices (run with "
                  "--set fixed_function.max_vertex_blend_matrix_index=N)");
    c->add_option("--frame", a->frame,
                  "Keyframe models (MD2, MD3, MDL, MDC): A,B tweens frame A (stream 0) to frame B (stream 1), default "
                  "0,1 (frame 0 alone when the file has one frame); A alone draws frame A without tweening");
    c->add_option("--time", a->time,
                  "Skinned models: animation 0's time in seconds (default: the bind pose); tweened models: the "
                  "TWEENFACTOR, 0..1 (default 0.5)");
    c->add_option("--cache", a->cache, "Post-transform cache entries of the report's ACMR figures (default 24, the presets')")
        ->check(CLI::Range(3, 1024));
    c->add_option("--effect", a->effect,
                  "fixed-function (default) or skin-shader: skinned meshes drawn by a vs.1.1 palette-skinning program "
                  "(28-bone palettes, one directional light) instead of fixed-function vertex blending");
    c->add_flag("--compress", a->compress,
                "With --effect skin-shader: the skinned meshes' normals as SHORT4 (fixed function needs FLOAT3)");
    c->add_flag("-q,--quiet", a->quiet, "No summary on stderr");
    c->add_option("--time-limit", a->limits.time_seconds,
                  "Seconds the reading process may take (wall time; default 20, 0.1..86400); at the limit it is killed "
                  "and the import fails");
    c->add_option("--memory-limit", a->limits.memory_mib,
                  "MiB of address space the reading process may use (default 4096, 64..1048576; its resident set in an "
                  "AddressSanitizer build); beyond it the import fails");
    c->callback([a, &exit_code] { exit_code = run_import(*a); });
}

}  // namespace vpsim::cli

// vpsim import: a model file read through Assimp (Debian libassimp-dev) written as a scene that
// draws it the way a DirectX 8 title would (docs/import.md): FVF vertex buffers in binary side
// files, the file's triangle order, materials, lights and camera (or a default rig), node
// transforms, skinned meshes as vertex blending with bone palettes split to the device's caps,
// keyframe models as tweening between two frames. Linked by the vpsim CLI only: the golden
// library stays free of Assimp.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::import {

// Bad input (unreadable file, no triangles, over a limit, a bad option value): the message names
// the file and the reason. Nothing has been written when it is thrown.
struct ImportError : std::runtime_error {
    using std::runtime_error::runtime_error;
};

enum class IndexOrder : uint8_t { File, Optimised, Random };

struct ImportOptions {
    std::string input;              // the model file (any format Assimp reads; .pk3 for Quake 3 maps)
    std::string output;             // the scene (.json); side files and the report go next to it
    IndexOrder order = IndexOrder::File;
    uint32_t seed = 1;              // IndexOrder::Random
    // Skinning: 0 = non-indexed vertex blending (subsets of at most max_blend_matrices bones,
    // WORLDMATRIX(0..3)), the presets' MaxVertexBlendMatrixIndex; N >= 2 = indexed blending with
    // a palette of N + 1 matrices (INDEXEDVERTEXBLENDENABLE, LASTBETA_UBYTE4 indices).
    uint32_t max_blend_index = 0;
    uint32_t max_blend_matrices = 4;  // MaxVertexBlendMatrices (the presets': 4)
    // Keyframe models (MD2, MD3, MDL, MDC): the two frames tweened (frame A in stream 0, B in
    // stream 1); none = 0 and 1 for those formats, a single frame = no tweening.
    std::optional<std::pair<uint32_t, uint32_t>> frames;
    bool single_frame = false;      // --frame A alone
    // Skinned models: the animation time in seconds (animation 0); none = the bind pose.
    // Tweened models: the TWEENFACTOR (0..1); none = 0.5.
    std::optional<double> time;
    uint32_t cache_size = 24;       // the post-transform cache (FIFO) entries of the ACMR figures
    // Skinned meshes drawn by a vs.1.1 palette-skinning program (palettes of 28 bones) instead of
    // fixed function; `compress`: their normals as SHORT4 (fixed function needs FLOAT3 normals).
    bool skin_shader = false;
    bool compress = false;
};

// One output file: its path (the scene's directory) and its bytes.
struct OutputFile {
    std::string path;
    std::string bytes;
};

// What an import writes: the side files, the report (<scene stem>.import.json) and the scene, last.
struct ImportProduct {
    nlohmann::json report;
    std::vector<OutputFile> files;
};

// Reads the model through Assimp and builds the scene, writing nothing: every number the scene
// and the report would hold is finite (else ImportError naming what and where).
ImportProduct build_import(const ImportOptions& opt);

// Writes the files, each to a temporary renamed into place, the scene last; a failure removes
// what was renamed (ImportError).
void write_import(const std::vector<OutputFile>& files);

// build_import then write_import, in this process (tests; the CLI reads behind a wall:
// walled_import.h). Returns the report.
nlohmann::json import_model(const ImportOptions& opt);

// The report's human-readable summary (stderr).
std::string report_text(const nlohmann::json& report);

}  // namespace vpsim::import

// A capture (docs/capture.md) to a vpsim scene (docs/scenes.md): the calls that reach the
// vertex pipeline become scene commands; a buffer's contents become a scene buffer when a draw
// first reads it, and an UpdateBuffer of the bytes written since whenever a later draw reads it
// again; user-pointer draws become a buffer and a plain draw. See docs/capture.md,
// "Conversion".
#pragma once

#include "model/capture/capture_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <map>
#include <string>

namespace vpsim::capture {

struct ConvertOptions {
    uint32_t first = 0, last = 0xFFFFFFFFu;  // the frames whose draws are kept (state from earlier frames is kept too)
    // Buffer and UpdateBuffer bytes as "base64" strings (with the buffer's "size"), else as "bytes"
    // arrays of numbers: several times the text and the time to load (docs/capture.md, "Conversion").
    bool base64 = true;
};

struct ConvertResult {
    nlohmann::json scene;
    uint32_t frames = 0;   // frames converted (of those in the range)
    uint64_t draws = 0;    // draws in the scene
    uint64_t processed = 0;  // ProcessVertices calls whose results became buffer bytes
    uint64_t refused = 0;  // calls the runtime refused (a failed HRESULT, capture version 3): left out
    uint64_t updates = 0, update_bytes = 0;  // UpdateBuffer commands (buffers written again after a draw read them)
    std::string error;     // the capture's damage or a call the scene cannot express: where it stopped
    std::map<std::string, uint64_t> dropped;  // calls left out, by kind ("SetRenderState 7 (ZENABLE...)")
    // Calls Wine accepted that Windows' runtime refuses, left out, by kind: a CreateVertexShader
    // failing declaration rule D16 or D17 (docs/spec/declaration.md), and the SetVertexShader
    // calls and draws that use it ("CreateVertexShader failing D17 (input-not-loaded): ...").
    std::map<std::string, uint64_t> windows_refused;
    // Calls Windows accepts that vpsim's D3D8 vertex shader ISA cannot express, left out, by kind:
    // a CreateVertexShader in D3D9's vs_1_1 form (dcl, def), and the calls that use it.
    std::map<std::string, uint64_t> not_expressible;
    // Draws that read past the end of a vertex buffer (D3D8 leaves those bytes undefined), and the
    // zero bytes the scene's buffers got after their ends for them.
    uint64_t past_end_draws = 0, past_end_zero_bytes = 0;
};

ConvertResult convert_capture(const Capture& c, const ConvertOptions& o);

}  // namespace vpsim::capture

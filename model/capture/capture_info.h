// `vpsim capture info`: what a capture holds, frame by frame (docs/capture.md).
#pragma once

#include "model/capture/capture_reader.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::capture {

struct FrameInfo {
    uint32_t index = 0;
    uint64_t calls = 0, draws = 0, vertices = 0;  // vertices: references of the draws (primitive count expanded)
    uint64_t shader_draws = 0, fixed_function_draws = 0, user_pointer_draws = 0;
    uint64_t constant_vectors = 0;  // SetVertexShaderConstant registers written
    uint64_t buffer_bytes = 0;      // bytes written through Lock/Unlock
    uint64_t user_pointer_bytes = 0;  // vertex and index bytes carried by user-pointer draws
    uint64_t state_calls = 0;       // transform, light, material, render / texture-stage state, viewport calls
    uint64_t state_block_calls = 0; // Create / Begin / End / Capture / Apply / DeleteStateBlock
    uint64_t process_vertices_calls = 0, processed_vertices = 0;  // ProcessVertices: calls, vertices
    uint64_t resets = 0;
    uint64_t refused_calls = 0;     // calls the runtime refused (a failed HRESULT, version 3): counted in nothing else
};

std::vector<FrameInfo> capture_info(const Capture& c);
std::string info_text(const Capture& c, const std::vector<FrameInfo>& f);
nlohmann::json info_json(const Capture& c, const std::vector<FrameInfo>& f);

}  // namespace vpsim::capture

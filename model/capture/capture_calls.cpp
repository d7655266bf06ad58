#include "model/capture/capture_calls.h"

#include <fmt/format.h>

#include <cstring>

namespace vpsim::capture {

const char* op_name(uint32_t op) {
    static const char* const names[] = {"",
                                        "CreateDevice",
                                        "CreateVertexBuffer",
                                        "CreateIndexBuffer",
                                        "VertexBufferData",
                                        "IndexBufferData",
                                        "SetStreamSource",
                                        "SetIndices",
                                        "CreateVertexShader",
                                        "SetVertexShader",
                                        "DeleteVertexShader",
                                        "SetVertexShaderConstant",
                                        "SetTransform",
                                        "MultiplyTransform",
                                        "SetLight",
                                        "LightEnable",
                                        "SetMaterial",
                                        "SetRenderState",
                                        "SetTextureStageState",
                                        "SetViewport",
                                        "DrawPrimitive",
                                        "DrawIndexedPrimitive",
                                        "DrawPrimitiveUP",
                                        "DrawIndexedPrimitiveUP",
                                        "Present",
                                        "DeviceCaps",
                                        "CreateStateBlock",
                                        "BeginStateBlock",
                                        "EndStateBlock",
                                        "CaptureStateBlock",
                                        "ApplyStateBlock",
                                        "DeleteStateBlock",
                                        "ProcessVertices",
                                        "Reset"};
    return op <= VPSIM_OP_LAST ? names[op] : "";
}

uint32_t Args::u32() {
    uint32_t v;
    std::memcpy(&v, bytes(4), 4);
    return v;
}

float Args::f32() {
    float v;
    std::memcpy(&v, bytes(4), 4);
    return v;
}

const uint8_t* Args::bytes(uint64_t n) {
    if (n > n_ - pos_) throw std::out_of_range(fmt::format("capture call arguments: {} bytes wanted at {}, {} held", n, pos_, n_));
    const uint8_t* r = p_ + pos_;
    pos_ += n;
    return r;
}

uint64_t primitive_vertices(uint32_t type, uint64_t count) {
    switch (type) {
    case 1: return count;
    case 2: return 2 * count;
    case 3: return count + 1;
    case 4: return 3 * count;
    case 5:
    case 6: return count + 2;
    default: return 0;
    }
}

namespace {

uint32_t word(const uint8_t* p, uint64_t i) {
    uint32_t v;
    std::memcpy(&v, p + 4 * i, 4);
    return v;
}

// The bytes op takes beyond its fixed part, read from the fixed part's counts.
uint64_t carried_bytes(uint32_t op, const uint8_t* p) {
    switch (op) {
    case VPSIM_OP_VERTEX_BUFFER_DATA:
    case VPSIM_OP_INDEX_BUFFER_DATA: return word(p, 2);
    case VPSIM_OP_CREATE_VERTEX_SHADER: return 4 * (uint64_t(word(p, 2)) + word(p, 3));
    case VPSIM_OP_SET_VERTEX_SHADER_CONSTANT: return 16 * uint64_t(word(p, 1));
    case VPSIM_OP_DRAW_PRIMITIVE_UP: return word(p, 3);
    case VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP: return uint64_t(word(p, 6)) + word(p, 7);
    case VPSIM_OP_PROCESS_VERTICES: return word(p, 6);
    default: return 0;
    }
}

}  // namespace

std::string check_arguments(uint32_t op, const uint8_t* p, uint64_t n, uint32_t version) {
    static const uint32_t fixed[] = {0,  24, 20, 20, 16, 16, 12, 8,  16, 4,  4,  8,  68, 68, 108, 8, 68,
                                     8,  12, 24, 12, 20, 16, 32, 0,  4 * VPSIM_CAPS_WORDS, 8, 0, 4, 4, 4, 4, 28, 12};
    static_assert(sizeof fixed / sizeof fixed[0] == VPSIM_OP_LAST + 1, "one fixed size per op");
    const uint32_t last = version <= 1 ? uint32_t(VPSIM_OP_LAST_V1) : uint32_t(VPSIM_OP_LAST);
    if (op == 0 || op > last) return fmt::format("unknown op {} (capture version {} knows 1..{})", op, version, last);
    const uint64_t f = fixed[op];
    if (n < f) return fmt::format("{} takes at least {} argument bytes, found {}", op_name(op), f, n);
    const uint64_t total = f + carried_bytes(op, p);
    if (n != total)
        return fmt::format("{} takes {} argument bytes (its fixed {} and the data its counts say), found {}", op_name(op),
                           total, f, n);
    return "";
}

}  // namespace vpsim::capture

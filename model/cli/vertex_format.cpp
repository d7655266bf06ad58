#include "model/cli/vertex_format.h"

#include "model/common/float_bits.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cmath>

namespace vpsim::cli {

std::string float_text(float f) {
    if (std::isnan(f)) return fmt::format("nan:0x{:08X}", float_bits(f));
    if (std::isinf(f)) return f > 0 ? "inf" : "-inf";
    if (f == 0.0f && std::signbit(f)) return "-0.0";
    return fmt::format("{}", f);
}

std::string float_json(float f) { return std::isfinite(f) ? float_text(f) : "\"" + float_text(f) + "\""; }

std::string vec_text(const vs::Vec4& v) {
    return fmt::format("({}, {}, {}, {})", float_text(v[0]), float_text(v[1]), float_text(v[2]), float_text(v[3]));
}

std::string vec_json(const vs::Vec4& v) {
    return fmt::format("[{}, {}, {}, {}]", float_json(v[0]), float_json(v[1]), float_json(v[2]), float_json(v[3]));
}

std::string vertex_json(uint32_t index, const vs::VertexOutputs& o) {
    std::string t;
    for (uint32_t i = 0; i < vs::kNumTexcoords; ++i) t += (i ? ", " : "") + vec_json(o.t[i]);
    return fmt::format(R"({{"index": {}, "oPos": {}, "oD0": {}, "oD1": {}, "oFog": {}, "oPts": {}, "oT": [{}]}})",
                       index, vec_json(o.pos), vec_json(o.d0), vec_json(o.d1), float_json(o.fog), float_json(o.pts), t);
}

namespace {
std::string json_string(const std::string& s) { return nlohmann::json(s).dump(); }
}  // namespace

std::string draws_json_open(const std::string& scene, const std::string& engine) {
    return fmt::format("{{\"scene\": {}, \"engine\": {}, \"draws\": [", json_string(scene), json_string(engine));
}

std::string draw_json_open(bool first, const DrawJsonHeader& h) {
    return fmt::format("{}\n {{\"command\": {}, \"pointer\": {}, \"op\": {}, \"shader\": {}, \"type\": {}, "
                       "\"primitives\": {}, \"vertices\": {}, \"unique_vertices\": {}",
                       first ? "" : ",", h.command, json_string(h.pointer), json_string(h.op), json_string(h.shader),
                       json_string(h.type), h.primitives, h.vertices, h.unique_vertices);
}

std::string draws_json_close(uint64_t draws, uint64_t primitives, uint64_t vertices, uint64_t unique_vertices) {
    return fmt::format("\n], \"totals\": {{\"draws\": {}, \"primitives\": {}, \"vertices\": {}, "
                       "\"unique_vertices\": {}}}}}\n",
                       draws, primitives, vertices, unique_vertices);
}

}  // namespace vpsim::cli

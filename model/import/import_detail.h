// What the import's files share (model/import only; not part of its interface): D3D's matrix form
// of Assimp's matrices, the little-endian writers of the binary side files, and the log that names
// the file in errors and collects what the scene cannot represent.
#pragma once
#include "model/import/assimp_import.h"

#include <assimp/color4.h>
#include <assimp/matrix4x4.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace vpsim::import::detail {

using json = nlohmann::ordered_json;
using Mat = std::array<std::array<float, 4>, 4>;  // a D3DMATRIX, row vectors (v' = v * M)

constexpr float kPi = 3.14159265358979f;

// --effect skin-shader's palette: 28 bones from c10 (import_mesh.cpp's skin_program).
constexpr uint32_t kShaderPalette = 28, kPaletteBase = 10;

// Assimp's matrices act on column vectors (translation in a4, b4, c4): D3D's is the transpose.
inline Mat to_d3d(const aiMatrix4x4& m) {
    Mat d{};
    for (unsigned r = 0; r < 4; ++r)
        for (unsigned c = 0; c < 4; ++c) d[r][c] = m[c][r];
    return d;
}
inline json mat_json(const Mat& m) {
    json a = json::array();
    for (const auto& row : m) a.push_back(json::array({row[0], row[1], row[2], row[3]}));
    return a;
}
inline json color_json(const aiColor4D& c) { return json::array({c.r, c.g, c.b, c.a}); }

inline void put_f(std::vector<uint8_t>& b, float f) {
    uint8_t x[4];
    std::memcpy(x, &f, 4);
    b.insert(b.end(), x, x + 4);
}
inline void put_u32(std::vector<uint8_t>& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
inline uint32_t d3dcolor(const aiColor4D& c) {
    auto q = [](float x) { return uint32_t(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f)); };
    return (q(c.a) << 24) | (q(c.r) << 16) | (q(c.g) << 8) | q(c.b);
}

// Errors name the input file; notes (the report's "not_represented") list, in the order found,
// what the scene leaves out.
struct ImportLog {
    std::string file;
    json not_represented = json::array();

    [[noreturn]] void fail(const std::string& why) const { throw ImportError(file + ": " + why); }
    void note(const std::string& what) { not_represented.push_back(what); }
};

}  // namespace vpsim::import::detail

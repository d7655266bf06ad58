// vpsim import through Assimp: docs/import.md describes every choice made here.
#include "model/import/assimp_import.h"

#include "model/common/file_util.h"
#include "model/common/printable.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <memory>
#include <random>
#include <set>
#include <unordered_map>
#include <vector>

namespace vpsim::import {

namespace {

namespace fs = std::filesystem;
using json = nlohmann::ordered_json;
using Mat = std::array<std::array<float, 4>, 4>;  // a D3DMATRIX, row vectors (v' = v * M)

constexpr float kPi = 3.14159265358979f;

// Assimp's matrices act on column vectors (translation in a4, b4, c4): D3D's is the transpose.
Mat to_d3d(const aiMatrix4x4& m) {
    Mat d{};
    for (unsigned r = 0; r < 4; ++r)
        for (unsigned c = 0; c < 4; ++c) d[r][c] = m[c][r];
    return d;
}
json mat_json(const Mat& m) {
    json a = json::array();
    for (const auto& row : m) a.push_back(json::array({row[0], row[1], row[2], row[3]}));
    return a;
}
json color_json(const aiColor4D& c) { return json::array({c.r, c.g, c.b, c.a}); }

std::string lower(std::string s) {
    for (char& ch : s) ch = char(std::tolower(static_cast<unsigned char>(ch)));
    return s;
}

bool is_keyframe_format(const std::string& ext) {
    return ext == ".md2" || ext == ".md3" || ext == ".mdl" || ext == ".mdc";
}

// The frame count in a keyframe model's header, 0 when unknown: num_frames at byte 40 of an MD2,
// 76 of an MD3 or MDC, 68 of a Quake 1 MDL ("IDPO"; other MDL variants: unknown).
uint32_t header_frames(const std::string& path, const std::string& ext) {
    std::ifstream f(path, std::ios::binary);
    char magic[4] = {};
    if (!f.read(magic, 4)) return 0;
    size_t off = 0;
    if (ext == ".md2") off = 40;
    else if (ext == ".md3" || ext == ".mdc") off = 76;
    else if (ext == ".mdl" && std::memcmp(magic, "IDPO", 4) == 0) off = 68;
    if (off == 0) return 0;
    char buf[4];
    if (!f.seekg(std::streamoff(off)) || !f.read(buf, 4)) return 0;
    int32_t n;
    std::memcpy(&n, buf, 4);
    return n > 0 ? uint32_t(n) : 0;
}

// The JSON pointer of the first number in `j` that is not finite ("" when all are): JSON has no
// NaN or infinity (nlohmann writes null, which no loader reads as a number).
std::string first_non_finite(const json& j, const std::string& at = "") {
    if (j.is_number_float()) return std::isfinite(j.get<double>()) ? "" : (at.empty() ? "/" : at);
    if (j.is_array()) {
        for (size_t i = 0; i < j.size(); ++i) {
            std::string p = first_non_finite(j[i], at + "/" + std::to_string(i));
            if (!p.empty()) return p;
        }
    } else if (j.is_object()) {
        for (auto it = j.begin(); it != j.end(); ++it) {
            std::string p = first_non_finite(it.value(), at + "/" + it.key());
            if (!p.empty()) return p;
        }
    }
    return "";
}

// ------------------------------------------------------------------ animation (skinned poses)

template <class K>
size_t key_before(const K* keys, unsigned n, double t) {
    size_t i = 0;
    while (i + 1 < n && keys[i + 1].mTime <= t) ++i;
    return i;
}
aiVector3D sample(const aiVectorKey* k, unsigned n, double t) {
    size_t i = key_before(k, n, t);
    if (i + 1 >= n || t <= k[i].mTime) return k[i].mValue;
    const double span = k[i + 1].mTime - k[i].mTime;
    const float f = span > 0 ? float((t - k[i].mTime) / span) : 0.0f;
    return k[i].mValue + (k[i + 1].mValue - k[i].mValue) * f;
}
aiQuaternion sample(const aiQuatKey* k, unsigned n, double t) {
    size_t i = key_before(k, n, t);
    if (i + 1 >= n || t <= k[i].mTime) return k[i].mValue;
    const double span = k[i + 1].mTime - k[i].mTime;
    const float f = span > 0 ? float((t - k[i].mTime) / span) : 0.0f;
    aiQuaternion q;
    aiQuaternion::Interpolate(q, k[i].mValue, k[i + 1].mValue, f);
    return q.Normalize();
}

// Every node's global transform (Assimp convention), with animation 0 at `ticks` when given.
void globals(const aiNode* node, const aiMatrix4x4& parent, const std::map<std::string, aiMatrix4x4>& local_override,
             std::map<const aiNode*, aiMatrix4x4>& out, std::map<std::string, const aiNode*>& by_name) {
    auto it = local_override.find(node->mName.C_Str());
    const aiMatrix4x4 g = parent * (it != local_override.end() ? it->second : node->mTransformation);
    out[node] = g;
    by_name.emplace(node->mName.C_Str(), node);
    for (unsigned i = 0; i < node->mNumChildren; ++i) globals(node->mChildren[i], g, local_override, out, by_name);
}

// ------------------------------------------------------------------ one mesh, as drawn

struct Influence {
    uint32_t bone;
    float weight;
};

struct Subset {
    std::vector<uint32_t> bones;      // mesh bone indices, palette slot = position
    std::vector<uint32_t> triangles;  // mesh triangle numbers, file order
    uint32_t first_vertex = 0, vertex_count = 0, start_index = 0;
};

struct BuiltMesh {
    std::string name;
    uint32_t source_index = 0;
    std::string fvf;                   // empty when a declaration is used (tweening)
    std::string declaration;           // tweening
    uint32_t stride0 = 0, stride1 = 0;
    std::vector<uint8_t> vb0, vb1, ib;
    bool index32 = false;
    uint32_t vertices = 0, triangles = 0;
    bool skinned = false, indexed = false, shader = false;  // shader: --effect skin-shader
    uint32_t blend_count = 0;          // max matrices per vertex (skinned)
    std::vector<Subset> subsets;
    std::vector<aiMatrix4x4> offsets;  // per mesh bone
    std::string program;               // --effect skin-shader: the vs.1.1 program
    std::vector<std::string> bone_names;
    uint64_t dropped_weights = 0, unweighted_vertices = 0, weights_dropped_for_palette = 0;
    double acmr_file = 0, acmr_optimised = 0;  // of the drawn order vs meshoptimizer's
    double acmr_drawn = 0;
};

void put_f(std::vector<uint8_t>& b, float f) {
    uint8_t x[4];
    std::memcpy(x, &f, 4);
    b.insert(b.end(), x, x + 4);
}
void put_u32(std::vector<uint8_t>& b, uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(uint8_t(v >> (8 * i)));
}
uint32_t d3dcolor(const aiColor4D& c) {
    auto q = [](float x) { return uint32_t(std::lround(std::clamp(x, 0.0f, 1.0f) * 255.0f)); };
    return (q(c.a) << 24) | (q(c.r) << 16) | (q(c.g) << 8) | q(c.b);
}

double acmr(const std::vector<uint32_t>& idx, size_t vertex_count, uint32_t cache) {
    if (idx.empty()) return 0;
    return meshopt_analyzeVertexCache(idx.data(), idx.size(), vertex_count, cache, 0, 0).acmr;
}

void reorder(std::vector<uint32_t>& t, size_t vertex_count, IndexOrder order, uint32_t seed) {
    if (order == IndexOrder::Optimised) {
        std::vector<uint32_t> o(t.size());
        meshopt_optimizeVertexCache(o.data(), t.data(), t.size(), vertex_count);
        t.swap(o);
    } else if (order == IndexOrder::Random) {
        // As the generators (docs/scenes.md): Fisher-Yates over the triangles with mt19937(seed).
        std::mt19937 rng(seed);
        for (size_t i = t.size() / 3; i-- > 1;) {
            const size_t j = size_t(rng() % (i + 1));
            for (size_t k = 0; k < 3; ++k) std::swap(t[3 * i + k], t[3 * j + k]);
        }
    }
}

// --effect skin-shader: a vs.1.1 palette-skinning program with 4 matrices per vertex (3 FLOAT
// weights, the fourth 1 - their sum; UBYTE4 indices), D3DX's indexed-skinning shader's shape.
// Constants: c0..c3 view x projection (columns), c4 = (3, 1, 0, 1/32767), c5 the direction to the
// light (world space), c6 light diffuse x material diffuse, c7 ambient + emissive, c10.. the
// palette: 3 registers per bone (the rows of its 3x4 world matrix in column-vector form), 28 bones
// (c10..c93 of the 96 a vs.1.1 device has).
constexpr uint32_t kShaderPalette = 28, kPaletteBase = 10;
std::string skin_program(bool normal, bool texcoord) {
    std::string p = "vs.1.1\n; palette skinning, 4 bones per vertex (vpsim import --effect skin-shader)\n"
                    "mul r0, v2, c4.x\n"                      // indices x 3
                    "dp3 r9.w, v1.xyz, c4.y\n"                // w0 + w1 + w2
                    "add r9.w, c4.y, -r9.w\n";                // w3 = 1 - (w0 + w1 + w2)
    const char* comp[4] = {"x", "y", "z", "w"};
    for (int k = 0; k < 4; ++k) {
        const std::string w = k < 3 ? std::string("v1.") + comp[k] : "r9.w";
        p += fmt::format("mov a0.x, r0.{}\n", comp[k]);
        p += fmt::format("m4x3 r2.xyz, v0, c[a0.x + {}]\n", kPaletteBase);
        if (normal) p += fmt::format("m3x3 r3.xyz, v3, c[a0.x + {}]\n", kPaletteBase);
        p += k == 0 ? fmt::format("mul r1.xyz, r2, {}\n", w) : fmt::format("mad r1.xyz, r2, {}, r1\n", w);
        if (normal) p += k == 0 ? fmt::format("mul r4.xyz, r3, {}\n", w) : fmt::format("mad r4.xyz, r3, {}, r4\n", w);
    }
    p += "mov r1.w, c4.y\nm4x4 oPos, r1, c0\n";
    if (normal) {
        p += "dp3 r5.x, r4, r4\nrsq r5.x, r5.x\nmul r4.xyz, r4, r5.x\n"
             "dp3 r6.x, r4, c5\nmax r6.x, r6.x, c4.z\nmul r7, r6.x, c6\nadd oD0, r7, c7\n";
    } else {
        p += "mov r7, c6\nadd oD0, r7, c7\n";
    }
    if (texcoord) p += "mov oT0, v7\n";
    return p;
}

struct Importer {
    const ImportOptions& opt;
    json report;
    json not_represented = json::array();
    std::string file;  // the input, as named in messages

    explicit Importer(const ImportOptions& o) : opt(o), file(o.input) {}

    [[noreturn]] void fail(const std::string& why) const { throw ImportError(file + ": " + why); }
    void note(const std::string& what) { not_represented.push_back(what); }

    // Every attribute of source vertex `v` that a vertex buffer would hold is finite (else the error
    // names the mesh, the vertex and the attribute).
    void check_finite(const aiMesh* m, const aiMesh* mb, uint32_t v, const std::vector<unsigned>& uv_sets,
                      uint32_t mesh_index, const std::string& name) const {
        auto finite = [](const aiVector3D& a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); };
        auto bad = [&](const std::string& what, const aiVector3D& a) {
            fail(fmt::format("mesh {} (\"{}\"), vertex {}: the {} ({}, {}, {}) is not finite", mesh_index, name, v, what,
                             a.x, a.y, a.z));
        };
        if (!finite(m->mVertices[v])) bad("position", m->mVertices[v]);
        if (m->HasNormals() && !finite(m->mNormals[v])) bad("normal", m->mNormals[v]);
        for (unsigned c : uv_sets)
            if (!finite(m->mTextureCoords[c][v])) bad(fmt::format("texture coordinate set {}", c), m->mTextureCoords[c][v]);
        if (mb && !finite(mb->mVertices[v])) bad("position in the second frame", mb->mVertices[v]);
        if (mb && mb->HasNormals() && !finite(mb->mNormals[v])) bad("normal in the second frame", mb->mNormals[v]);
    }

    // Builds one mesh. `b` is frame B's mesh for tweening (same vertex and face count).
    BuiltMesh build(const aiMesh* m, const aiMesh* mb, uint32_t mesh_index) {
        BuiltMesh out;
        out.name = m->mName.length ? m->mName.C_Str() : fmt::format("mesh{}", mesh_index);
        out.source_index = mesh_index;
        const uint32_t nv = m->mNumVertices;
        if (mb && (mb->mNumVertices != nv || mb->mNumFaces != m->mNumFaces))
            fail(fmt::format("mesh {} (\"{}\"): the two frames differ in vertices ({} / {}) or faces ({} / {}): "
                             "cannot tween",
                             mesh_index, out.name, nv, mb->mNumVertices, m->mNumFaces, mb->mNumFaces));
        // Triangles (Assimp's Triangulate and SortByPType leave triangle meshes with triangles only).
        std::vector<uint32_t> tri;
        tri.reserve(size_t(m->mNumFaces) * 3);
        for (unsigned f = 0; f < m->mNumFaces; ++f) {
            const aiFace& face = m->mFaces[f];
            if (face.mNumIndices != 3) continue;
            tri.insert(tri.end(), {face.mIndices[0], face.mIndices[1], face.mIndices[2]});
        }
        // Texture coordinate sets (Assimp has at most 8, D3D8's limit too).
        std::vector<unsigned> uv_sets, uv_dims;
        for (unsigned c = 0; c < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++c)
            if (m->HasTextureCoords(c)) {
                uv_sets.push_back(c);
                uv_dims.push_back(std::clamp(m->mNumUVComponents[c], 1u, 3u));
            }
        const bool has_normal = m->HasNormals();
        const bool has_color = m->HasVertexColors(0);
        for (unsigned c = 1; c < AI_MAX_NUMBER_OF_COLOR_SETS; ++c)
            if (m->HasVertexColors(c))
                note(fmt::format("mesh {} (\"{}\"): vertex colour set {} (only set 0 is drawn, as DIFFUSE)", mesh_index,
                                 out.name, c));
        if (m->mNumAnimMeshes > 0)
            note(fmt::format("mesh {} (\"{}\"): {} morph targets (not tweened: only keyframe formats are)", mesh_index,
                             out.name, m->mNumAnimMeshes));

        // Skinning: per vertex the strongest influences, at most max_blend_matrices (<= 4).
        std::vector<std::vector<Influence>> infl;
        const bool skinned = m->HasBones() && !mb;
        if (m->HasBones() && mb) note(fmt::format("mesh {} (\"{}\"): bones ignored (the model is tweened)", mesh_index, out.name));
        uint32_t palette = 0;
        if (skinned) {
            out.skinned = true;
            out.shader = opt.skin_shader;
            out.indexed = opt.max_blend_index > 0 || out.shader;
            palette = out.shader ? kShaderPalette : out.indexed ? opt.max_blend_index + 1 : opt.max_blend_matrices;
            infl.resize(nv);
            for (unsigned b = 0; b < m->mNumBones; ++b) {
                const aiBone* bone = m->mBones[b];
                out.offsets.push_back(bone->mOffsetMatrix);
                out.bone_names.push_back(bone->mName.C_Str());
                for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                    const aiVertexWeight& vw = bone->mWeights[w];
                    if (!std::isfinite(vw.mWeight))
                        fail(fmt::format("mesh {} (\"{}\"): bone {} (\"{}\"): the weight of vertex {} is not finite ({})",
                                         mesh_index, out.name, b, bone->mName.C_Str(), vw.mVertexId, vw.mWeight));
                    if (vw.mVertexId < nv && vw.mWeight > 0) infl[vw.mVertexId].push_back({b, vw.mWeight});
                }
            }
            const uint32_t per_vertex = std::min<uint32_t>(4, opt.max_blend_matrices);
            for (auto& v : infl) {
                if (v.empty()) {
                    v.push_back({0, 1.0f});
                    ++out.unweighted_vertices;
                    continue;
                }
                std::stable_sort(v.begin(), v.end(), [](const Influence& a, const Influence& b) { return a.weight > b.weight; });
                if (v.size() > per_vertex) {
                    out.dropped_weights += v.size() - per_vertex;
                    v.resize(per_vertex);
                }
                float s = 0;
                for (auto& i : v) s += i.weight;
                for (auto& i : v) i.weight /= s;
            }
            // A triangle's bones must fit one palette: drop the weakest influence of a vertex
            // that keeps another until they do (the vertex loses it everywhere, renormalised).
            auto tri_bones = [&](size_t t) {
                std::vector<uint32_t> s;
                for (int k = 0; k < 3; ++k)
                    for (const auto& i : infl[tri[3 * t + k]]) s.push_back(i.bone);
                std::sort(s.begin(), s.end());
                s.erase(std::unique(s.begin(), s.end()), s.end());
                return s;
            };
            for (size_t t = 0; t < tri.size() / 3; ++t) {
                while (tri_bones(t).size() > palette) {
                    uint32_t best_v = 0;
                    size_t best_i = 0;
                    float best_w = 2.0f;
                    for (int k = 0; k < 3; ++k) {
                        const uint32_t vi = tri[3 * t + k];
                        if (infl[vi].size() < 2) continue;
                        for (size_t i = 0; i < infl[vi].size(); ++i)
                            if (infl[vi][i].weight < best_w) best_w = infl[vi][i].weight, best_v = vi, best_i = i;
                    }
                    auto& v = infl[best_v];
                    v.erase(v.begin() + long(best_i));
                    ++out.weights_dropped_for_palette;
                    float s = 0;
                    for (auto& i : v) s += i.weight;
                    for (auto& i : v) i.weight /= s;
                }
            }
            // Bone combinations (D3DX's indexed-blended / blended meshes): each triangle goes to
            // the first subset whose palette takes its bones; subsets keep the file order.
            for (size_t t = 0; t < tri.size() / 3; ++t) {
                const auto bones = tri_bones(t);
                bool placed = false;
                for (auto& s : out.subsets) {
                    std::vector<uint32_t> u;
                    std::set_union(s.bones.begin(), s.bones.end(), bones.begin(), bones.end(), std::back_inserter(u));
                    if (u.size() <= palette) {
                        s.bones = u;
                        s.triangles.push_back(uint32_t(t));
                        placed = true;
                        break;
                    }
                }
                if (!placed) out.subsets.push_back({bones, {uint32_t(t)}, 0, 0, 0});
            }
            for (const auto& v : infl) out.blend_count = std::max<uint32_t>(out.blend_count, uint32_t(v.size()));
            if (!out.indexed)
                for (const auto& s : out.subsets) out.blend_count = std::max<uint32_t>(out.blend_count, uint32_t(s.bones.size()));
        } else {
            Subset s;
            for (size_t t = 0; t < tri.size() / 3; ++t) s.triangles.push_back(uint32_t(t));
            out.subsets.push_back(std::move(s));
        }

        // Vertex layout.
        uint32_t weights = 0;  // explicit FLOAT weights stored
        std::string fvf;
        if (!skinned) {
            fvf = "XYZ";
        } else if (out.indexed) {
            weights = out.blend_count - 1;
            fvf = fmt::format("XYZB{}|LASTBETA_UBYTE4", weights + 1);
        } else {
            weights = out.blend_count - 1;
            fvf = weights == 0 ? "XYZ" : fmt::format("XYZB{}", weights);
        }
        if (has_normal) fvf += "|NORMAL";
        if (has_color) fvf += "|DIFFUSE";
        if (!uv_sets.empty()) fvf += fmt::format("|TEX{}", uv_sets.size());
        for (size_t i = 0; i < uv_sets.size(); ++i)
            if (uv_dims[i] != 2) fvf += fmt::format("|TEXCOORDSIZE{}({})", uv_dims[i], i);

        // Vertices: per subset its own copies (a vertex shared by two subsets is duplicated,
        // its palette slots differ); tweened vertices joined on both frames' attributes.
        std::vector<uint8_t>& vb = out.vb0;
        std::vector<uint8_t>& vb1 = out.vb1;
        std::vector<uint32_t> indices, file_order;
        uint32_t next = 0;
        for (auto& s : out.subsets) {
            s.first_vertex = next;
            s.start_index = uint32_t(indices.size());
            std::unordered_map<std::string, uint32_t> seen;
            std::unordered_map<uint32_t, uint32_t> remap;
            std::vector<uint32_t> local;
            for (uint32_t t : s.triangles)
                for (int k = 0; k < 3; ++k) {
                    const uint32_t src = tri[3 * size_t(t) + k];
                    auto r = remap.find(src);
                    if (r != remap.end()) {
                        local.push_back(r->second);
                        continue;
                    }
                    std::vector<uint8_t> v, v1;
                    check_finite(m, mb, src, uv_sets, mesh_index, out.name);
                    const aiVector3D& p = m->mVertices[src];
                    put_f(v, p.x), put_f(v, p.y), put_f(v, p.z);
                    if (skinned) {
                        std::array<float, 4> w{};
                        std::array<uint8_t, 4> idx{};
                        const auto& in = infl[src];
                        if (out.shader) {
                            // The program's layout: 3 FLOAT weights (the fourth implied), 4
                            // UBYTE4 palette indices.
                            for (size_t i = 0; i < in.size(); ++i) {
                                w[i] = in[i].weight;
                                idx[i] = uint8_t(std::lower_bound(s.bones.begin(), s.bones.end(), in[i].bone) - s.bones.begin());
                            }
                            for (uint32_t i = 0; i < 3; ++i) put_f(v, w[i]);
                            put_u32(v, uint32_t(idx[0]) | uint32_t(idx[1]) << 8 | uint32_t(idx[2]) << 16 |
                                           uint32_t(idx[3]) << 24);
                        } else if (out.indexed) {
                            for (size_t i = 0; i < in.size(); ++i) {
                                w[i] = in[i].weight;
                                idx[i] = uint8_t(std::lower_bound(s.bones.begin(), s.bones.end(), in[i].bone) - s.bones.begin());
                            }
                            for (uint32_t i = 0; i < weights; ++i) put_f(v, w[i]);
                            put_u32(v, uint32_t(idx[0]) | uint32_t(idx[1]) << 8 | uint32_t(idx[2]) << 16 |
                                           uint32_t(idx[3]) << 24);
                        } else {
                            // Non-indexed: the weight of palette slot k is that of the subset's
                            // k-th bone; the last slot's weight is implied (1 - the others).
                            for (const auto& i : in) {
                                const size_t slot = size_t(std::lower_bound(s.bones.begin(), s.bones.end(), i.bone) - s.bones.begin());
                                w[slot] = i.weight;
                            }
                            const size_t last = s.bones.size() - 1;
                            for (uint32_t i = 0; i < weights; ++i) put_f(v, i < last ? w[i] : 0.0f);
                        }
                    }
                    if (has_normal && out.shader && opt.compress) {
                        // SHORT4, round(32767 n), w 0: the program scales by 1/32767.
                        const aiVector3D& n = m->mNormals[src];
                        for (float c : {n.x, n.y, n.z, 0.0f}) {
                            const int16_t q = int16_t(std::clamp(std::lround(c * 32767.0f), -32767l, 32767l));
                            v.push_back(uint8_t(uint16_t(q))), v.push_back(uint8_t(uint16_t(q) >> 8));
                        }
                    } else if (has_normal) {
                        const aiVector3D& n = m->mNormals[src];
                        put_f(v, n.x), put_f(v, n.y), put_f(v, n.z);
                    }
                    if (has_color) put_u32(v, d3dcolor(m->mColors[0][src]));
                    for (size_t i = 0; i < uv_sets.size(); ++i) {
                        const aiVector3D& uv = m->mTextureCoords[uv_sets[i]][src];
                        const float c[3] = {uv.x, uv.y, uv.z};
                        for (unsigned d = 0; d < uv_dims[i]; ++d) put_f(v, c[d]);
                    }
                    if (mb) {
                        const aiVector3D& p2 = mb->mVertices[src];
                        put_f(v1, p2.x), put_f(v1, p2.y), put_f(v1, p2.z);
                        const aiVector3D n2 = mb->HasNormals() ? mb->mNormals[src] : aiVector3D(0, 0, 0);
                        put_f(v1, n2.x), put_f(v1, n2.y), put_f(v1, n2.z);
                    }
                    uint32_t id;
                    if (mb) {  // join identical vertices of both frames
                        std::string key(v.begin(), v.end());
                        key.append(v1.begin(), v1.end());
                        auto e = seen.emplace(std::move(key), next);
                        if (e.second) {
                            id = next++;
                            vb.insert(vb.end(), v.begin(), v.end());
                            vb1.insert(vb1.end(), v1.begin(), v1.end());
                        } else {
                            id = e.first->second;
                        }
                    } else {
                        id = next++;
                        vb.insert(vb.end(), v.begin(), v.end());
                    }
                    if (out.stride0 == 0) out.stride0 = uint32_t(v.size()), out.stride1 = uint32_t(v1.size());
                    remap.emplace(src, id);
                    local.push_back(id);
                }
            s.vertex_count = next - s.first_vertex;
            file_order.insert(file_order.end(), local.begin(), local.end());
            // The drawn order within the subset.
            std::vector<uint32_t> rel(local.size());
            for (size_t i = 0; i < local.size(); ++i) rel[i] = local[i] - s.first_vertex;
            reorder(rel, s.vertex_count, opt.order, opt.seed + uint32_t(&s - out.subsets.data()));
            for (uint32_t r : rel) indices.push_back(r + s.first_vertex);
        }
        out.vertices = next;
        out.triangles = uint32_t(indices.size() / 3);
        if (out.vertices > (1u << 24))
            fail(fmt::format("mesh {} (\"{}\"): {} vertices: over vpsim's limit of 16,777,216 per mesh", mesh_index,
                             out.name, out.vertices));
        out.index32 = out.vertices > 65536;
        for (uint32_t i : indices) {
            if (out.index32) put_u32(out.ib, i);
            else out.ib.push_back(uint8_t(i)), out.ib.push_back(uint8_t(i >> 8));
        }
        // ACMR: the file's order (the source triangles as Assimp gives them) against
        // meshoptimizer's order of the same triangles, and the order drawn.
        // Tweened meshes: Assimp's vertices are per face corner; the order is measured on the
        // vertices joined over both frames.
        {
            const std::vector<uint32_t>& f = mb ? file_order : tri;
            const size_t n = mb ? out.vertices : nv;
            std::vector<uint32_t> o(f.size());
            meshopt_optimizeVertexCache(o.data(), f.data(), f.size(), n);
            out.acmr_file = acmr(f, n, opt.cache_size);
            out.acmr_optimised = acmr(o, n, opt.cache_size);
            out.acmr_drawn = acmr(indices, out.vertices, opt.cache_size);
        }
        if (mb) {
            out.fvf.clear();
            std::string d = "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3)";
            if (has_normal) d += ", D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3)";
            if (has_color) d += ", D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR)";
            for (size_t i = 0; i < uv_sets.size(); ++i)
                d += fmt::format(", D3DVSD_REG(D3DVSDE_TEXCOORD{}, D3DVSDT_FLOAT{})", i, uv_dims[i]);
            d += ", D3DVSD_STREAM(1), D3DVSD_REG(D3DVSDE_POSITION2, D3DVSDT_FLOAT3)";
            if (has_normal) d += ", D3DVSD_REG(D3DVSDE_NORMAL2, D3DVSDT_FLOAT3)";
            else d += ", D3DVSD_SKIP(3)";
            d += ", D3DVSD_END()";
            out.declaration = d;
        } else if (out.shader) {
            std::string d = "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), "
                            "D3DVSD_REG(D3DVSDE_BLENDWEIGHT, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_BLENDINDICES, D3DVSDT_UBYTE4)";
            if (has_normal) d += opt.compress ? ", D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_SHORT4)" : ", D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3)";
            if (has_color) d += ", D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR)";
            for (size_t i = 0; i < uv_sets.size(); ++i)
                d += fmt::format(", D3DVSD_REG(D3DVSDE_TEXCOORD{}, D3DVSDT_FLOAT{})", i, uv_dims[i]);
            d += ", D3DVSD_END()";
            out.declaration = d;
            out.program = skin_program(has_normal, !uv_sets.empty());
        } else {
            out.fvf = fvf;
        }
        return out;
    }
};

// Faces whose indices are outside their mesh (Assimp 5.2's Q3BSP importer writes some): removed
// before post-processing, counted for the report.
uint64_t drop_bad_faces(aiScene* s) {
    uint64_t dropped = 0;
    for (unsigned i = 0; i < s->mNumMeshes; ++i) {
        aiMesh* m = s->mMeshes[i];
        unsigned w = 0;
        for (unsigned f = 0; f < m->mNumFaces; ++f) {
            const aiFace& face = m->mFaces[f];
            bool ok = face.mNumIndices > 0;
            for (unsigned k = 0; k < face.mNumIndices; ++k) ok &= face.mIndices[k] < m->mNumVertices;
            if (!ok) {
                ++dropped;
                continue;
            }
            if (w != f) m->mFaces[w] = m->mFaces[f];
            ++w;
        }
        m->mNumFaces = w;
    }
    return dropped;
}

const aiScene* read(Assimp::Importer& imp, const std::string& path, unsigned flags, const std::string& file,
                    uint64_t* bad_faces = nullptr) {
    const std::string ext = lower(fs::path(path).extension().string());
    const aiScene* s = nullptr;
    if (ext == ".pk3" || ext == ".bsp") {
        // Quake 3 maps: read raw, repair the faces, then post-process without Assimp's
        // validation, which refuses its own Q3BSP importer's lightmap and texture tables (unused
        // here; the meshes are checked by drop_bad_faces).
        s = imp.ReadFile(path, 0);
        if (s) {
            const uint64_t n = drop_bad_faces(const_cast<aiScene*>(s));
            if (bad_faces) *bad_faces = n;
            s = imp.ApplyPostProcessing(flags & ~unsigned(aiProcess_ValidateDataStructure | aiProcess_FindDegenerates |
                                                          aiProcess_FindInvalidData));
        }
    } else {
        s = imp.ReadFile(path, flags);
    }
    if (!s) {
        std::string why = imp.GetErrorString();
        if (why.empty()) why = "Assimp cannot read it";
        throw ImportError(file + ": " + why);
    }
    if (s->mFlags & AI_SCENE_FLAGS_INCOMPLETE) throw ImportError(file + ": Assimp read an incomplete scene (no meshes)");
    return s;
}

}  // namespace

ImportProduct build_import(const ImportOptions& opt) {
    Importer im(opt);
    const std::string file = opt.input;
    {
        std::error_code ec;
        if (!fs::exists(opt.input, ec)) throw ImportError(file + ": cannot open: no such file");
        if (!fs::is_regular_file(opt.input, ec)) throw ImportError(file + ": not a regular file");
        std::ifstream probe(opt.input, std::ios::binary);
        if (!probe) throw ImportError(file + ": cannot open: permission denied or unreadable");
    }
    if (opt.max_blend_index == 1) throw ImportError(file + ": --max-blend-index 1: indexed blending needs a palette of at least 3 matrices (a triangle's 3 vertices), 0 for non-indexed blending, or 2..255");
    if (opt.max_blend_index > 255) throw ImportError(file + ": --max-blend-index " + std::to_string(opt.max_blend_index) + ": above D3D8's 255");
    if (opt.max_blend_matrices < 3 || opt.max_blend_matrices > 4)
        throw ImportError(file + ": max blend matrices " + std::to_string(opt.max_blend_matrices) + ": expected 3 or 4");
    if (opt.compress && !opt.skin_shader)
        throw ImportError(file + ": --compress: fixed function needs FLOAT3 normals (declaration rule 16); compressed "
                                 "normals need --effect skin-shader");
    const std::string ext = lower(fs::path(opt.input).extension().string());
    const bool keyframes = is_keyframe_format(ext);
    bool tween = keyframes && !opt.single_frame;
    std::pair<uint32_t, uint32_t> frames = opt.frames.value_or(std::make_pair(0u, 1u));
    if (opt.time && !std::isfinite(*opt.time))
        throw ImportError(file + fmt::format(": --time {}: not a finite number", *opt.time));
    if (opt.frames && !keyframes && !(opt.single_frame && frames.first == 0))
        throw ImportError(file + ": --frame: " + ext + " is not a keyframe format (MD2, MD3, MDL, MDC); skinned models take --time");
    const uint32_t file_frames = header_frames(opt.input, ext);
    // Without --frame: frames 0 and 1, or frame 0 alone when the header says the file has one.
    if (keyframes && !opt.frames && file_frames == 1) tween = false, frames = {0, 0};
    if (keyframes && file_frames > 0) {
        const uint32_t hi = std::max(frames.first, tween ? frames.second : frames.first);
        if (hi >= file_frames)
            throw ImportError(file + fmt::format(": --frame {}: the file has {} frames (0..{})", hi, file_frames, file_frames - 1));
    }
    if (tween && opt.time && (*opt.time < 0 || *opt.time > 1))
        throw ImportError(file + fmt::format(": --time {}: a tweened model's time is the TWEENFACTOR, 0..1", *opt.time));

    // Assimp's post-processing: `assimp info`'s preset (aiProcessPreset_TargetRealtime_MaxQuality)
    // without the steps that would change what is measured: ImproveCacheLocality (reorders the
    // file's triangles) and LimitBoneWeights (vpsim keeps the strongest 4 itself and counts the
    // rest). Keyframe models skip JoinIdenticalVertices (and the steps that merge or split
    // meshes): the two frames' vertices must correspond; vpsim joins them on both frames.
    unsigned flags = aiProcessPreset_TargetRealtime_MaxQuality & ~unsigned(aiProcess_ImproveCacheLocality) &
                     ~unsigned(aiProcess_LimitBoneWeights);
    if (tween)
        flags = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_GenSmoothNormals | aiProcess_ValidateDataStructure;
    Assimp::Importer imp_a, imp_b;
    imp_a.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, 0);
    if (keyframes) {
        imp_a.SetPropertyInteger(AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, int(frames.first));
        imp_b.SetPropertyInteger(AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, int(frames.second));
    }
    uint64_t bad_faces = 0;
    const aiScene* sa = read(imp_a, opt.input, flags, file, &bad_faces);
    if (bad_faces)
        im.note(fmt::format("{} faces with a vertex index outside their mesh (as Assimp read the file): not drawn", bad_faces));
    const aiScene* sb = nullptr;
    if (tween && !opt.frames && file_frames == 0) {
        // The frame count is not in a header vpsim reads: frame 1 when the file has one, else frame 0 alone.
        try {
            sb = read(imp_b, opt.input, flags, file);
        } catch (const ImportError&) {
            tween = false, frames = {0, 0};
        }
    } else if (tween) {
        sb = read(imp_b, opt.input, flags, file);
    }
    if (sb && sb->mNumMeshes != sa->mNumMeshes)
        throw ImportError(file + ": the two frames have different meshes: cannot tween");

    // Meshes: triangles only; lines and points are listed, not drawn.
    std::vector<BuiltMesh> meshes(sa->mNumMeshes);
    std::vector<bool> drawable(sa->mNumMeshes, false);
    uint64_t total_tris = 0;
    for (unsigned i = 0; i < sa->mNumMeshes; ++i) {
        const aiMesh* m = sa->mMeshes[i];
        uint64_t lines = 0, points = 0, tris = 0;
        for (unsigned f = 0; f < m->mNumFaces; ++f) {
            const unsigned n = m->mFaces[f].mNumIndices;
            (n == 1 ? points : n == 2 ? lines : tris) += 1;
        }
        if (lines) im.note(fmt::format("mesh {} (\"{}\"): {} lines (not drawn: the import draws triangle lists)", i, m->mName.C_Str(), lines));
        if (points) im.note(fmt::format("mesh {} (\"{}\"): {} points (not drawn: the import draws triangle lists)", i, m->mName.C_Str(), points));
        if (tris == 0) continue;
        meshes[i] = im.build(m, sb ? sb->mMeshes[i] : nullptr, i);
        drawable[i] = true;
        total_tris += meshes[i].triangles;
    }
    if (total_tris == 0) throw ImportError(file + ": the model has no triangles");

    // Node transforms (animation 0 at --time for skinned models, else as in the file).
    std::map<std::string, aiMatrix4x4> local_override;
    json pose = "bind pose (the file's node transforms)";
    if (opt.time && !tween) {
        if (sa->mNumAnimations == 0) throw ImportError(file + ": --time: the model has no animation");
        const aiAnimation* an = sa->mAnimations[0];
        const double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
        if (!std::isfinite(*opt.time * tps))
            throw ImportError(file + fmt::format(": --time {}: at animation 0's {} ticks per second the tick is not finite",
                                                 *opt.time, tps));
        const double ticks = std::fmod(*opt.time * tps, std::max(an->mDuration, 1e-9));
        for (unsigned c = 0; c < an->mNumChannels; ++c) {
            const aiNodeAnim* ch = an->mChannels[c];
            aiMatrix4x4 t, r, s;
            if (ch->mNumPositionKeys) aiMatrix4x4::Translation(sample(ch->mPositionKeys, ch->mNumPositionKeys, ticks), t);
            if (ch->mNumRotationKeys) r = aiMatrix4x4(sample(ch->mRotationKeys, ch->mNumRotationKeys, ticks).GetMatrix());
            if (ch->mNumScalingKeys) aiMatrix4x4::Scaling(sample(ch->mScalingKeys, ch->mNumScalingKeys, ticks), s);
            local_override[ch->mNodeName.C_Str()] = t * r * s;
        }
        pose = fmt::format("animation 0 (\"{}\") at {} s = tick {}", an->mName.C_Str(), *opt.time, ticks);
    }
    std::map<const aiNode*, aiMatrix4x4> global;
    std::map<std::string, const aiNode*> by_name;
    globals(sa->mRootNode, aiMatrix4x4(), local_override, global, by_name);

    // Draw list: every node's meshes with the node's global transform.
    struct DrawRef {
        unsigned mesh;
        const aiNode* node;
    };
    std::vector<DrawRef> refs;
    std::vector<const aiNode*> stack{sa->mRootNode};
    while (!stack.empty()) {
        const aiNode* n = stack.back();
        stack.pop_back();
        for (unsigned i = 0; i < n->mNumMeshes; ++i)
            if (drawable[n->mMeshes[i]]) refs.push_back({n->mMeshes[i], n});
        for (unsigned c = n->mNumChildren; c-- > 0;) stack.push_back(n->mChildren[c]);
    }

    // Bounding box in world space (skinned meshes: the bind pose through their node).
    aiVector3D lo(1e30f, 1e30f, 1e30f), hi(-1e30f, -1e30f, -1e30f);
    for (const auto& r : refs) {
        const aiMesh* m = sa->mMeshes[r.mesh];
        const aiMatrix4x4& g = global[r.node];
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            const aiVector3D p = g * m->mVertices[v];
            lo.x = std::min(lo.x, p.x), lo.y = std::min(lo.y, p.y), lo.z = std::min(lo.z, p.z);
            hi.x = std::max(hi.x, p.x), hi.y = std::max(hi.y, p.y), hi.z = std::max(hi.z, p.z);
        }
    }
    if (!(lo.x <= hi.x) || !std::isfinite(lo.x) || !std::isfinite(hi.x))
        throw ImportError(file + ": the model's vertices are not finite");

    // Output names.
    const fs::path scene_path = opt.output;
    const fs::path dir = scene_path.parent_path();
    const std::string stem = scene_path.stem().string();
    auto side = [&](const std::string& suffix) { return stem + suffix; };
    std::vector<OutputFile> files;

    json scene;
    scene["description"] = fmt::format("{} imported by vpsim import (docs/import.md)", fs::path(opt.input).filename().string());
    json buffers = json::object();
    json cmds = json::array();
    auto cmd = [&](json c) { cmds.push_back(std::move(c)); };

    // Camera: the file's first camera, else the default rig framing the bounding box.
    const aiVector3D centre = (lo + hi) * 0.5f;
    const float radius = std::max(0.5f * (hi - lo).Length(), 1e-6f);
    Mat view{}, proj{};
    json rig;
    auto look_at_lh = [](aiVector3D eye, aiVector3D at, aiVector3D up) {
        aiVector3D z = (at - eye).Normalize();
        aiVector3D x = (up ^ z);
        if (x.Length() < 1e-6f) x = aiVector3D(0, 0, 1) ^ z;
        x.Normalize();
        const aiVector3D y = z ^ x;
        Mat m{};
        m[0] = {x.x, y.x, z.x, 0};
        m[1] = {x.y, y.y, z.y, 0};
        m[2] = {x.z, y.z, z.z, 0};
        m[3] = {-(x * eye), -(y * eye), -(z * eye), 1};
        return m;
    };
    auto perspective_lh = [](float fovy, float aspect, float zn, float zf) {
        const float ys = 1.0f / std::tan(fovy / 2), xs = ys / aspect;
        Mat m{};
        m[0] = {xs, 0, 0, 0};
        m[1] = {0, ys, 0, 0};
        m[2] = {0, 0, zf / (zf - zn), 1};
        m[3] = {0, 0, -zn * zf / (zf - zn), 0};
        return m;
    };
    if (sa->mNumCameras > 0) {
        const aiCamera* c = sa->mCameras[0];
        auto it = by_name.find(c->mName.C_Str());
        const aiMatrix4x4 g = it != by_name.end() ? global[it->second] : aiMatrix4x4();
        const aiVector3D eye = g * c->mPosition;
        aiMatrix3x3 g3(g);
        const aiVector3D look = g3 * c->mLookAt, up = g3 * c->mUp;
        view = look_at_lh(eye, eye + look, up);
        const float aspect = c->mAspect > 0 ? c->mAspect : 4.0f / 3.0f;
        const float hfov = c->mHorizontalFOV > 0 ? c->mHorizontalFOV : kPi / 4;
        const float fovy = 2 * std::atan(std::tan(hfov / 2) / aspect);
        const float zn = c->mClipPlaneNear > 0 ? c->mClipPlaneNear : 0.1f;
        const float zf = c->mClipPlaneFar > zn ? c->mClipPlaneFar : zn * 1000;
        proj = perspective_lh(fovy, aspect, zn, zf);
        rig["camera"] = fmt::format("the file's camera \"{}\"", c->mName.C_Str());
        if (sa->mNumCameras > 1) im.note(fmt::format("{} more cameras (the first is used)", sa->mNumCameras - 1));
    } else {
        const float fovy = kPi / 4, aspect = 4.0f / 3.0f;
        const float dist = radius / std::sin(fovy / 2) * 1.1f;
        const aiVector3D eye = centre - aiVector3D(0, 0, dist);
        view = look_at_lh(eye, centre, aiVector3D(0, 1, 0));
        proj = perspective_lh(fovy, aspect, std::max(dist - 2 * radius, dist * 0.01f), dist + 2 * radius);
        rig["camera"] = "default: 45-degree vertical field of view, 4:3, on the -z side of the bounding box's centre at 1.1 x radius / sin(22.5 deg), looking +z";
    }
    cmd({{"op", "SetTransform"}, {"state", "VIEW"}, {"matrix", mat_json(view)}});
    cmd({{"op", "SetTransform"}, {"state", "PROJECTION"}, {"matrix", mat_json(proj)}});
    cmd({{"op", "SetRenderState"}, {"state", "LIGHTING"}, {"value", true}});
    cmd({{"op", "SetRenderState"}, {"state", "AMBIENT"}, {"value", "0xFF202020"}});

    // Lights: the file's (at most 8 enabled, MaxActiveLights), else one directional light.
    uint32_t lights = 0;
    // --effect skin-shader lights with one directional light: the first the scene enables.
    std::array<float, 3> shader_light{}, shader_diffuse{1, 1, 1};
    bool shader_light_set = false;
    for (unsigned l = 0; l < sa->mNumLights; ++l) {
        const aiLight* L = sa->mLights[l];
        json j;
        auto it = by_name.find(L->mName.C_Str());
        const aiMatrix4x4 g = it != by_name.end() ? global[it->second] : aiMatrix4x4();
        const aiMatrix3x3 g3(g);
        const aiVector3D pos = g * L->mPosition;
        aiVector3D dirv = g3 * L->mDirection;
        if (dirv.Length() < 1e-12f) dirv = aiVector3D(0, 0, 1);
        switch (L->mType) {
        case aiLightSource_DIRECTIONAL: j["type"] = "DIRECTIONAL"; break;
        case aiLightSource_POINT: j["type"] = "POINT"; break;
        case aiLightSource_SPOT: j["type"] = "SPOT"; break;
        default:
            im.note(fmt::format("light {} (\"{}\"): type {} (D3D8 has point, spot and directional lights)", l,
                                L->mName.C_Str(), int(L->mType)));
            continue;
        }
        if (lights >= 8) {
            im.note(fmt::format("light {} (\"{}\"): beyond MaxActiveLights 8", l, L->mName.C_Str()));
            continue;
        }
        j["diffuse"] = json::array({L->mColorDiffuse.r, L->mColorDiffuse.g, L->mColorDiffuse.b, 1});
        j["specular"] = json::array({L->mColorSpecular.r, L->mColorSpecular.g, L->mColorSpecular.b, 1});
        j["ambient"] = json::array({L->mColorAmbient.r, L->mColorAmbient.g, L->mColorAmbient.b, 1});
        j["position"] = json::array({pos.x, pos.y, pos.z});
        j["direction"] = json::array({dirv.x, dirv.y, dirv.z});
        if (L->mType != aiLightSource_DIRECTIONAL) {
            float a0 = L->mAttenuationConstant, a1 = L->mAttenuationLinear, a2 = L->mAttenuationQuadratic;
            if (!(a0 >= 0) || !(a1 >= 0) || !(a2 >= 0) || a0 + a1 + a2 == 0) a0 = 1, a1 = 0, a2 = 0;
            j["range"] = 1e18;
            j["attenuation0"] = a0, j["attenuation1"] = a1, j["attenuation2"] = a2;
        }
        if (L->mType == aiLightSource_SPOT) {
            const float phi = std::clamp(L->mAngleOuterCone, 0.0f, kPi);
            j["phi"] = phi;
            j["theta"] = std::clamp(L->mAngleInnerCone, 0.0f, phi);
            j["falloff"] = 1.0;
        }
        if (L->mType == aiLightSource_DIRECTIONAL && !shader_light_set) {
            aiVector3D t = dirv;
            t.Normalize();
            t = -t;
            shader_light = {t.x, t.y, t.z};
            shader_diffuse = {L->mColorDiffuse.r, L->mColorDiffuse.g, L->mColorDiffuse.b};
            shader_light_set = true;
        }
        cmd({{"op", "SetLight"}, {"index", lights}, {"light", j}});
        cmd({{"op", "LightEnable"}, {"index", lights}, {"enable", true}});
        ++lights;
    }
    if (!shader_light_set) {
        const aiVector3D t = -aiVector3D(0.3f, -0.5f, 1.0f).Normalize();
        shader_light = {t.x, t.y, t.z};
    }
    if (lights == 0) {
        cmd({{"op", "SetLight"}, {"index", 0},
             {"light", {{"type", "DIRECTIONAL"}, {"diffuse", {1, 1, 1, 1}}, {"specular", {1, 1, 1, 1}},
                        {"direction", {0.3, -0.5, 1.0}}}}});
        cmd({{"op", "LightEnable"}, {"index", 0}, {"enable", true}});
        rig["lights"] = "default: one white directional light along (0.3, -0.5, 1), ambient 0xFF202020";
    } else {
        rig["lights"] = fmt::format("{} of the file's lights, ambient 0xFF202020", lights);
    }

    // Buffers and draws.
    json mesh_report = json::array();
    uint64_t total_vertices = 0, draws = 0, total_bones = 0;
    std::string cur_blend = "DISABLE";
    bool cur_indexed = false;
    auto set_blend = [&](const std::string& vb, bool indexed) {
        if (vb != cur_blend) cmd({{"op", "SetRenderState"}, {"state", "VERTEXBLEND"}, {"value", vb}}), cur_blend = vb;
        if (indexed != cur_indexed)
            cmd({{"op", "SetRenderState"}, {"state", "INDEXEDVERTEXBLENDENABLE"}, {"value", indexed}}), cur_indexed = indexed;
    };
    for (unsigned i = 0; i < meshes.size(); ++i) {
        if (!drawable[i]) continue;
        const BuiltMesh& b = meshes[i];
        const std::string base = fmt::format("m{}", i);
        files.push_back({(dir / side("." + base + ".vb")).string(), std::string(b.vb0.begin(), b.vb0.end())});
        buffers[base + ".vb"] = {{"file", side("." + base + ".vb")}};
        if (!b.vb1.empty()) {
            files.push_back({(dir / side("." + base + ".frame2.vb")).string(), std::string(b.vb1.begin(), b.vb1.end())});
            buffers[base + ".frame2.vb"] = {{"file", side("." + base + ".frame2.vb")}};
        }
        files.push_back({(dir / side("." + base + ".ib")).string(), std::string(b.ib.begin(), b.ib.end())});
        buffers[base + ".ib"] = {{"file", side("." + base + ".ib")}, {"format", b.index32 ? "INDEX32" : "INDEX16"}};
        if (b.shader)
            cmd({{"op", "CreateVertexShader"}, {"name", base + ".skin"}, {"declaration", {{"text", b.declaration}}},
                 {"function", {{"asm", b.program}}}});
        else if (!b.declaration.empty())
            cmd({{"op", "CreateVertexShader"}, {"name", base + ".tween"}, {"declaration", {{"text", b.declaration}}}});
        total_vertices += b.vertices;
        total_bones += b.offsets.size();
        json mr = {{"mesh", i}, {"name", b.name}, {"vertices", b.vertices}, {"triangles", b.triangles},
                   {"source_vertices", sa->mMeshes[i]->mNumVertices}, {"index_format", b.index32 ? "INDEX32" : "INDEX16"},
                   {"stride", b.stride0}};
        if (!b.fvf.empty()) mr["fvf"] = b.fvf;
        else mr["declaration"] = b.declaration;
        if (b.shader) mr["program"] = b.program;
        mr["acmr_file"] = b.acmr_file;
        mr["acmr_optimised"] = b.acmr_optimised;
        mr["acmr_drawn"] = b.acmr_drawn;
        if (b.skinned) {
            mr["bones"] = b.offsets.size();
            mr["blending"] = b.shader ? "vs.1.1 palette skinning" : b.indexed ? "indexed" : "non-indexed";
            mr["matrices_per_vertex"] = b.blend_count;
            mr["subsets"] = b.subsets.size();
            mr["dropped_weights"] = b.dropped_weights;
            mr["weights_dropped_for_palette"] = b.weights_dropped_for_palette;
            mr["unweighted_vertices"] = b.unweighted_vertices;
            json combos = json::array();
            for (const auto& s : b.subsets) {
                json names = json::array();
                for (uint32_t k : s.bones) names.push_back(b.bone_names[k]);
                combos.push_back({{"triangles", s.triangles.size()}, {"vertices", s.vertex_count}, {"bones", names}});
            }
            mr["bone_combinations"] = combos;
            if (b.dropped_weights)
                im.note(fmt::format("mesh {} (\"{}\"): {} bone weights beyond the strongest {} per vertex dropped (renormalised)",
                                    i, b.name, b.dropped_weights, std::min<uint32_t>(4, opt.max_blend_matrices)));
            if (b.weights_dropped_for_palette)
                im.note(fmt::format("mesh {} (\"{}\"): {} bone weights dropped so that each triangle's bones fit a palette",
                                    i, b.name, b.weights_dropped_for_palette));
            if (b.unweighted_vertices)
                im.note(fmt::format("mesh {} (\"{}\"): {} vertices without a bone weight bound to bone 0", i, b.name,
                                    b.unweighted_vertices));
        }
        mesh_report.push_back(mr);
    }
    const aiMaterial* cur_mat = nullptr;
    aiColor4D cur_diffuse(0.8f, 0.8f, 0.8f, 1), cur_ambient(0, 0, 0, 1), cur_emissive(0, 0, 0, 1);
    for (const auto& r : refs) {
        const BuiltMesh& b = meshes[r.mesh];
        const aiMesh* m = sa->mMeshes[r.mesh];
        const std::string base = fmt::format("m{}", r.mesh);
        const aiMaterial* mat = m->mMaterialIndex < sa->mNumMaterials ? sa->mMaterials[m->mMaterialIndex] : nullptr;
        if (mat && mat != cur_mat) {
            aiColor4D d(0.8f, 0.8f, 0.8f, 1), a(0, 0, 0, 1), s(0, 0, 0, 1), e(0, 0, 0, 1);
            float power = 0, opacity = 1;
            mat->Get(AI_MATKEY_COLOR_DIFFUSE, d);
            mat->Get(AI_MATKEY_COLOR_AMBIENT, a);
            mat->Get(AI_MATKEY_COLOR_SPECULAR, s);
            mat->Get(AI_MATKEY_COLOR_EMISSIVE, e);
            mat->Get(AI_MATKEY_SHININESS, power);
            if (mat->Get(AI_MATKEY_OPACITY, opacity) == AI_SUCCESS) d.a = opacity;
            cur_diffuse = d, cur_ambient = a, cur_emissive = e;
            cmd({{"op", "SetMaterial"},
                 {"material", {{"diffuse", color_json(d)}, {"ambient", color_json(a)}, {"specular", color_json(s)},
                               {"emissive", color_json(e)}, {"power", power}}}});
            cur_mat = mat;
        }
        if (b.shader) cmd({{"op", "SetVertexShader"}, {"shader", base + ".skin"}});
        else if (b.declaration.empty()) cmd({{"op", "SetVertexShader"}, {"fvf", b.fvf}});
        else cmd({{"op", "SetVertexShader"}, {"shader", base + ".tween"}});
        if (b.shader) {
            // The program's constants (skin_program): view x projection, light, colours.
            Mat vp{};
            for (int i = 0; i < 4; ++i)
                for (int j = 0; j < 4; ++j)
                    for (int k = 0; k < 4; ++k) vp[i][j] += view[i][k] * proj[k][j];
            json c = json::array();
            for (int col = 0; col < 4; ++col) c.push_back({vp[0][col], vp[1][col], vp[2][col], vp[3][col]});
            c.push_back({3, 1, 0, 1.0 / 32767});
            c.push_back({shader_light[0], shader_light[1], shader_light[2], 0});
            c.push_back({shader_diffuse[0] * cur_diffuse.r, shader_diffuse[1] * cur_diffuse.g,
                         shader_diffuse[2] * cur_diffuse.b, cur_diffuse.a});
            const float amb = 32.0f / 255.0f;
            c.push_back({amb * cur_ambient.r + cur_emissive.r, amb * cur_ambient.g + cur_emissive.g,
                         amb * cur_ambient.b + cur_emissive.b, 0});
            cmd({{"op", "SetVertexShaderConstant"}, {"register", 0}, {"values", c}});
        }
        cmd({{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", base + ".vb"}, {"stride", b.stride0}});
        if (!b.vb1.empty()) cmd({{"op", "SetStreamSource"}, {"stream", 1}, {"buffer", base + ".frame2.vb"}, {"stride", b.stride1}});
        cmd({{"op", "SetIndices"}, {"buffer", base + ".ib"}, {"base_vertex", 0}});
        if (!b.declaration.empty() && !b.shader) {
            set_blend("TWEENING", false);
            cmd({{"op", "SetRenderState"}, {"state", "TWEENFACTOR"}, {"value", opt.time.value_or(0.5)}});
        }
        if (!b.skinned) {
            if (b.declaration.empty()) set_blend("DISABLE", false);
            cmd({{"op", "SetTransform"}, {"state", "WORLD"}, {"matrix", mat_json(to_d3d(global[r.node]))}});
        }
        for (const auto& s : b.subsets) {
            if (b.shader) {
                // The subset's palette at c10: 3 rows of each bone's matrix (column-vector form).
                json c = json::array();
                for (size_t k = 0; k < s.bones.size(); ++k) {
                    auto it = by_name.find(b.bone_names[s.bones[k]]);
                    const aiMatrix4x4 g = (it != by_name.end() ? global[it->second] : aiMatrix4x4()) * b.offsets[s.bones[k]];
                    for (unsigned row = 0; row < 3; ++row) c.push_back({g[row][0], g[row][1], g[row][2], g[row][3]});
                }
                cmd({{"op", "SetVertexShaderConstant"}, {"register", kPaletteBase}, {"values", c}});
            } else if (b.skinned) {
                // The subset's palette: WORLDMATRIX(k) = bone k's global transform x its offset.
                for (size_t k = 0; k < s.bones.size(); ++k) {
                    const std::string& name = b.bone_names[s.bones[k]];
                    auto it = by_name.find(name);
                    const aiMatrix4x4 g = it != by_name.end() ? global[it->second] : aiMatrix4x4();
                    cmd({{"op", "SetTransform"}, {"state", fmt::format("WORLDMATRIX({})", k)},
                         {"matrix", mat_json(to_d3d(g * b.offsets[s.bones[k]]))}});
                }
                const uint32_t n = b.indexed ? b.blend_count : uint32_t(s.bones.size());
                set_blend(n <= 1 ? "0WEIGHTS" : fmt::format("{}WEIGHTS", n - 1), b.indexed);
            }
            cmd({{"op", "DrawIndexedPrimitive"}, {"type", "trianglelist"}, {"min_index", s.first_vertex},
                 {"num_vertices", s.vertex_count}, {"start_index", s.start_index}, {"primitive_count", s.triangles.size()}});
            ++draws;
        }
    }
    scene["buffers"] = buffers;
    scene["commands"] = cmds;

    // The report.
    json& rep = im.report;
    rep["model"] = opt.input;
    rep["format"] = ext.empty() ? "" : ext.substr(1);
    rep["scene"] = opt.output;
    rep["postprocess_flags"] = fmt::format("0x{:08X}", flags);
    rep["vertices"] = total_vertices;
    rep["triangles"] = total_tris;
    rep["source_vertices"] = [&] {
        uint64_t n = 0;
        for (unsigned i = 0; i < sa->mNumMeshes; ++i) n += sa->mMeshes[i]->mNumVertices;
        return n;
    }();
    rep["source_faces"] = [&] {
        uint64_t n = 0;
        for (unsigned i = 0; i < sa->mNumMeshes; ++i) n += sa->mMeshes[i]->mNumFaces;
        return n;
    }();
    rep["draws"] = draws;
    rep["bones"] = total_bones;
    if (keyframes) {
        rep["frames_in_file"] = file_frames;
        if (tween) rep["tween"] = {{"frames", {frames.first, frames.second}}, {"tweenfactor", opt.time.value_or(0.5)}};
        else rep["frame"] = frames.first;
    }
    rep["pose"] = pose;
    rep["index_order"] = opt.order == IndexOrder::File ? "file" : opt.order == IndexOrder::Optimised ? "optimised" : "random";
    rep["acmr_cache_entries"] = opt.cache_size;
    {
        double f = 0, o = 0, d = 0;
        uint64_t t = 0;
        for (unsigned i = 0; i < meshes.size(); ++i)
            if (drawable[i]) {
                const auto& b = meshes[i];
                f += b.acmr_file * b.triangles, o += b.acmr_optimised * b.triangles, d += b.acmr_drawn * b.triangles;
                t += b.triangles;
            }
        rep["acmr_file"] = t ? f / double(t) : 0.0;
        rep["acmr_optimised"] = t ? o / double(t) : 0.0;
        rep["acmr_drawn"] = t ? d / double(t) : 0.0;
    }
    rep["rig"] = rig;
    rep["meshes"] = mesh_report;
    rep["not_represented"] = im.not_represented;

    // JSON has no NaN or infinity: a value that is not finite is refused before anything is written.
    for (const auto& [what, doc] : {std::pair<const char*, const json*>{"scene", &scene}, {"report", &rep}}) {
        const std::string at = first_non_finite(*doc);
        if (at.empty()) continue;
        std::string op;
        if (doc == &scene && at.rfind("/commands/", 0) == 0) {
            const size_t k = std::stoul(at.substr(10));
            op = fmt::format(" (command {}, {})", k, scene["commands"][k].value("op", "?"));
        }
        im.fail(fmt::format("the {} would hold a value that is not finite at {}{}: the model's data or an option "
                            "makes it NaN or infinite; nothing written",
                            what, at, op));
    }
    // Names from the file (meshes, bones, materials, animations) may hold bytes that are not
    // UTF-8: written as U+FFFD, as JSON requires.
    constexpr auto utf8 = json::error_handler_t::replace;
    files.push_back({(dir / side(".import.json")).string(), rep.dump(1, ' ', false, utf8) + "\n"});
    files.push_back({scene_path.string(), scene.dump(1, ' ', false, utf8) + "\n"});
    ImportProduct product;
    product.report = nlohmann::json::parse(rep.dump(-1, ' ', false, utf8));
    product.files = std::move(files);
    return product;
}

namespace {

// The directories an import's files need that do not exist yet are made (`-o newdir/scene.json`);
// the outermost ones made are returned so that a failure can remove them again.
std::vector<fs::path> make_parent_directories(const std::vector<OutputFile>& files) {
    std::vector<fs::path> made;
    for (const auto& f : files) {
        const fs::path parent = fs::path(f.path).parent_path();
        if (parent.empty()) continue;
        std::error_code ec;
        if (fs::is_directory(parent, ec)) continue;
        fs::path outermost = parent;
        while (!outermost.parent_path().empty() && outermost.parent_path() != outermost &&
               !fs::exists(outermost.parent_path(), ec))
            outermost = outermost.parent_path();
        if (!fs::create_directories(parent, ec) && ec) {
            for (const auto& d : made) fs::remove_all(d, ec);
            throw ImportError(fmt::format("{}: cannot make the directory {}: {}", f.path, parent.string(), ec.message()));
        }
        made.push_back(outermost);
    }
    return made;
}

// Every file to a temporary, then all renamed (below).
void write_import_files(const std::vector<OutputFile>& files);

}  // namespace

void write_import(const std::vector<OutputFile>& files) {
    const std::vector<fs::path> made = make_parent_directories(files);
    try {
        write_import_files(files);
    } catch (...) {
        std::error_code ec;
        for (const auto& d : made) fs::remove_all(d, ec);
        throw;
    }
}

namespace {

void write_import_files(const std::vector<OutputFile>& files) {
    // Everything written to temporaries, then renamed; a failure removes what was renamed.
    std::vector<std::unique_ptr<AtomicOutput>> outs;
    try {
        for (const auto& f : files) {
            outs.push_back(std::make_unique<AtomicOutput>(f.path));
            if (!f.bytes.empty() && std::fwrite(f.bytes.data(), 1, f.bytes.size(), outs.back()->file()) != f.bytes.size())
                throw OutputError(f.path + ": cannot write");
        }
    } catch (const OutputError& e) {
        throw ImportError(e.what());
    }
    size_t done = 0;
    try {
        for (; done < outs.size(); ++done) outs[done]->commit();
    } catch (const OutputError& e) {
        for (size_t k = 0; k < done; ++k) {
            std::error_code ec;
            fs::remove(files[k].path, ec);
        }
        throw ImportError(e.what());
    }
}

}  // namespace

nlohmann::json import_model(const ImportOptions& opt) {
    ImportProduct p = build_import(opt);
    write_import(p.files);
    return p.report;
}

std::string report_text(const nlohmann::json& r) {
    std::string s = fmt::format("{}: {} vertices, {} triangles, {} draws", printable(r.value("model", ""), 2000), r.value("vertices", 0),
                                r.value("triangles", 0), r.value("draws", 0));
    if (r.value("bones", 0) > 0) s += fmt::format(", {} bones", r.value("bones", 0));
    if (r.contains("tween")) s += fmt::format(", tweening frames {} and {}", r["tween"]["frames"][0].get<int>(), r["tween"]["frames"][1].get<int>());
    s += fmt::format("; ACMR ({} entries) file order {:.3f}, meshoptimizer {:.3f}\n", r.value("acmr_cache_entries", 0),
                     r.value("acmr_file", 0.0), r.value("acmr_optimised", 0.0));
    for (const auto& m : r["meshes"]) {
        s += fmt::format("  mesh {} \"{}\": {} vertices, {} triangles, {}, {}", m.value("mesh", 0), printable(m.value("name", "")),
                         m.value("vertices", 0), m.value("triangles", 0),
                         m.contains("fvf")       ? "FVF " + m.value("fvf", "")
                         : m.contains("program") ? std::string("declaration and vs.1.1 skinning program")
                                                 : std::string("tweening declaration"),
                         m.value("index_format", ""));
        if (m.contains("bones"))
            s += fmt::format(", {} bones, {} blending in {} subsets, {} weights dropped", m.value("bones", 0),
                             m.value("blending", ""), m.value("subsets", 0), m.value("dropped_weights", 0));
        s += "\n";
    }
    for (const auto& n : r["not_represented"]) s += "  not represented: " + printable(n.get<std::string>(), 2000) + "\n";
    return s;
}

}  // namespace vpsim::import

// One mesh of an imported model, as drawn: docs/import.md describes every choice made here.
#include "model/import/import_mesh.h"

#include <fmt/format.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <iterator>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

namespace vpsim::import::detail {

namespace {

struct Influence {
    uint32_t bone;
    float weight;
};
using Influences = std::vector<std::vector<Influence>>;  // per source vertex, strongest first

// What a vertex holds besides its position and blend data.
struct Attributes {
    std::vector<unsigned> uv_sets, uv_dims;  // Assimp's texture coordinate sets (at most 8, as D3D8)
    bool normal = false, color = false;
};

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

// Triangles (Assimp's Triangulate and SortByPType leave triangle meshes with triangles only).
std::vector<uint32_t> triangles_of(const aiMesh* m) {
    std::vector<uint32_t> tri;
    tri.reserve(size_t(m->mNumFaces) * 3);
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
        const aiFace& face = m->mFaces[f];
        if (face.mNumIndices != 3) continue;
        tri.insert(tri.end(), {face.mIndices[0], face.mIndices[1], face.mIndices[2]});
    }
    return tri;
}

Attributes attributes_of(const aiMesh* m, uint32_t mesh_index, const std::string& name, ImportLog& log) {
    Attributes a;
    for (unsigned c = 0; c < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++c)
        if (m->HasTextureCoords(c)) {
            a.uv_sets.push_back(c);
            a.uv_dims.push_back(std::clamp(m->mNumUVComponents[c], 1u, 3u));
        }
    a.normal = m->HasNormals();
    a.color = m->HasVertexColors(0);
    for (unsigned c = 1; c < AI_MAX_NUMBER_OF_COLOR_SETS; ++c)
        if (m->HasVertexColors(c))
            log.note(fmt::format("mesh {} (\"{}\"): vertex colour set {} (only set 0 is drawn, as DIFFUSE)", mesh_index,
                                 name, c));
    if (m->mNumAnimMeshes > 0)
        log.note(fmt::format("mesh {} (\"{}\"): {} morph targets (not tweened: only keyframe formats are)", mesh_index,
                             name, m->mNumAnimMeshes));
    return a;
}

// Every attribute of source vertex `v` that a vertex buffer would hold is finite (else the error
// names the mesh, the vertex and the attribute).
void check_finite(const aiMesh* m, const aiMesh* mb, uint32_t v, const std::vector<unsigned>& uv_sets,
                  uint32_t mesh_index, const std::string& name, const ImportLog& log) {
    auto finite = [](const aiVector3D& a) { return std::isfinite(a.x) && std::isfinite(a.y) && std::isfinite(a.z); };
    auto bad = [&](const std::string& what, const aiVector3D& a) {
        log.fail(fmt::format("mesh {} (\"{}\"), vertex {}: the {} ({}, {}, {}) is not finite", mesh_index, name, v, what,
                             a.x, a.y, a.z));
    };
    if (!finite(m->mVertices[v])) bad("position", m->mVertices[v]);
    if (m->HasNormals() && !finite(m->mNormals[v])) bad("normal", m->mNormals[v]);
    for (unsigned c : uv_sets)
        if (!finite(m->mTextureCoords[c][v])) bad(fmt::format("texture coordinate set {}", c), m->mTextureCoords[c][v]);
    if (mb && !finite(mb->mVertices[v])) bad("position in the second frame", mb->mVertices[v]);
    if (mb && mb->HasNormals() && !finite(mb->mNormals[v])) bad("normal in the second frame", mb->mNormals[v]);
}

void renormalise(std::vector<Influence>& v) {
    float s = 0;
    for (auto& i : v) s += i.weight;
    for (auto& i : v) i.weight /= s;
}

// Per vertex the strongest influences, at most max_blend_matrices (<= 4), renormalised; a vertex
// without a weight is bound to bone 0. Fills the mesh's bones (offsets, names) and the counts.
Influences influences_of(const aiMesh* m, uint32_t mesh_index, const ImportOptions& opt, BuiltMesh& out,
                         const ImportLog& log) {
    Influences infl(m->mNumVertices);
    for (unsigned b = 0; b < m->mNumBones; ++b) {
        const aiBone* bone = m->mBones[b];
        out.offsets.push_back(bone->mOffsetMatrix);
        out.bone_names.push_back(bone->mName.C_Str());
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight& vw = bone->mWeights[w];
            if (!std::isfinite(vw.mWeight))
                log.fail(fmt::format("mesh {} (\"{}\"): bone {} (\"{}\"): the weight of vertex {} is not finite ({})",
                                     mesh_index, out.name, b, bone->mName.C_Str(), vw.mVertexId, vw.mWeight));
            if (vw.mVertexId < m->mNumVertices && vw.mWeight > 0) infl[vw.mVertexId].push_back({b, vw.mWeight});
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
        renormalise(v);
    }
    return infl;
}

// The bones triangle `t` uses, sorted.
std::vector<uint32_t> triangle_bones(const Influences& infl, const std::vector<uint32_t>& tri, size_t t) {
    std::vector<uint32_t> s;
    for (int k = 0; k < 3; ++k)
        for (const auto& i : infl[tri[3 * t + k]]) s.push_back(i.bone);
    std::sort(s.begin(), s.end());
    s.erase(std::unique(s.begin(), s.end()), s.end());
    return s;
}

// A triangle's bones must fit one palette: drop the weakest influence of a vertex that keeps
// another until they do (the vertex loses it everywhere, renormalised).
void fit_palettes(Influences& infl, const std::vector<uint32_t>& tri, uint32_t palette, BuiltMesh& out) {
    for (size_t t = 0; t < tri.size() / 3; ++t) {
        while (triangle_bones(infl, tri, t).size() > palette) {
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
            renormalise(v);
        }
    }
}

// Bone combinations (D3DX's indexed-blended / blended meshes): each triangle goes to the first
// subset whose palette takes its bones; subsets keep the file order.
void bone_combinations(const Influences& infl, const std::vector<uint32_t>& tri, uint32_t palette, BuiltMesh& out) {
    for (size_t t = 0; t < tri.size() / 3; ++t) {
        const auto bones = triangle_bones(infl, tri, t);
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
}

// Skinning (a skinned mesh that is not tweened): the influences, fitted to palettes of the
// preset's size (or --effect skin-shader's 28), split into bone combinations.
Influences skin(const aiMesh* m, const std::vector<uint32_t>& tri, uint32_t mesh_index, const ImportOptions& opt,
                BuiltMesh& out, const ImportLog& log) {
    out.skinned = true;
    out.shader = opt.skin_shader;
    out.indexed = opt.max_blend_index > 0 || out.shader;
    const uint32_t palette = out.shader ? kShaderPalette : out.indexed ? opt.max_blend_index + 1 : opt.max_blend_matrices;
    Influences infl = influences_of(m, mesh_index, opt, out, log);
    fit_palettes(infl, tri, palette, out);
    bone_combinations(infl, tri, palette, out);
    for (const auto& v : infl) out.blend_count = std::max<uint32_t>(out.blend_count, uint32_t(v.size()));
    if (!out.indexed)
        for (const auto& s : out.subsets) out.blend_count = std::max<uint32_t>(out.blend_count, uint32_t(s.bones.size()));
    return infl;
}

// The vertex layout as an FVF; `weights` gets the number of explicit FLOAT blend weights.
std::string vertex_fvf(const BuiltMesh& out, const Attributes& a, uint32_t& weights) {
    weights = 0;
    std::string fvf;
    if (!out.skinned) {
        fvf = "XYZ";
    } else if (out.indexed) {
        weights = out.blend_count - 1;
        fvf = fmt::format("XYZB{}|LASTBETA_UBYTE4", weights + 1);
    } else {
        weights = out.blend_count - 1;
        fvf = weights == 0 ? "XYZ" : fmt::format("XYZB{}", weights);
    }
    if (a.normal) fvf += "|NORMAL";
    if (a.color) fvf += "|DIFFUSE";
    if (!a.uv_sets.empty()) fvf += fmt::format("|TEX{}", a.uv_sets.size());
    for (size_t i = 0; i < a.uv_sets.size(); ++i)
        if (a.uv_dims[i] != 2) fvf += fmt::format("|TEXCOORDSIZE{}({})", a.uv_dims[i], i);
    return fvf;
}

// The declaration of a tweened mesh (frame A in stream 0, frame B's position and normal in
// stream 1) or of --effect skin-shader's program.
std::string tween_declaration(const Attributes& a) {
    std::string d = "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3)";
    if (a.normal) d += ", D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3)";
    if (a.color) d += ", D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR)";
    for (size_t i = 0; i < a.uv_sets.size(); ++i)
        d += fmt::format(", D3DVSD_REG(D3DVSDE_TEXCOORD{}, D3DVSDT_FLOAT{})", i, a.uv_dims[i]);
    d += ", D3DVSD_STREAM(1), D3DVSD_REG(D3DVSDE_POSITION2, D3DVSDT_FLOAT3)";
    if (a.normal) d += ", D3DVSD_REG(D3DVSDE_NORMAL2, D3DVSDT_FLOAT3)";
    else d += ", D3DVSD_SKIP(3)";
    d += ", D3DVSD_END()";
    return d;
}
std::string skin_shader_declaration(const Attributes& a, bool compress) {
    std::string d = "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), "
                    "D3DVSD_REG(D3DVSDE_BLENDWEIGHT, D3DVSDT_FLOAT3), D3DVSD_REG(D3DVSDE_BLENDINDICES, D3DVSDT_UBYTE4)";
    if (a.normal) d += compress ? ", D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_SHORT4)" : ", D3DVSD_REG(D3DVSDE_NORMAL, D3DVSDT_FLOAT3)";
    if (a.color) d += ", D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR)";
    for (size_t i = 0; i < a.uv_sets.size(); ++i)
        d += fmt::format(", D3DVSD_REG(D3DVSDE_TEXCOORD{}, D3DVSDT_FLOAT{})", i, a.uv_dims[i]);
    d += ", D3DVSD_END()";
    return d;
}

// Writes one source vertex in the mesh's layout: `v` for stream 0, `v1` for frame B (tweening).
struct VertexWriter {
    const aiMesh* m;
    const aiMesh* mb;
    const Attributes& a;
    const ImportOptions& opt;
    const Influences& infl;
    const BuiltMesh& out;
    uint32_t weights;  // explicit FLOAT weights (vertex_fvf)

    void blend(uint32_t src, const Subset& s, std::vector<uint8_t>& v) const {
        std::array<float, 4> w{};
        std::array<uint8_t, 4> idx{};
        const auto& in = infl[src];
        auto slot_of = [&](uint32_t bone) {
            return size_t(std::lower_bound(s.bones.begin(), s.bones.end(), bone) - s.bones.begin());
        };
        if (out.shader || out.indexed) {
            // Indexed: the weights, then 4 UBYTE4 palette indices; the program's layout (shader)
            // has 3 FLOAT weights (the fourth implied).
            for (size_t i = 0; i < in.size(); ++i) {
                w[i] = in[i].weight;
                idx[i] = uint8_t(slot_of(in[i].bone));
            }
            for (uint32_t i = 0; i < (out.shader ? 3u : weights); ++i) put_f(v, w[i]);
            put_u32(v, uint32_t(idx[0]) | uint32_t(idx[1]) << 8 | uint32_t(idx[2]) << 16 | uint32_t(idx[3]) << 24);
        } else {
            // Non-indexed: the weight of palette slot k is that of the subset's k-th bone; the
            // last slot's weight is implied (1 - the others).
            for (const auto& i : in) w[slot_of(i.bone)] = i.weight;
            const size_t last = s.bones.size() - 1;
            for (uint32_t i = 0; i < weights; ++i) put_f(v, i < last ? w[i] : 0.0f);
        }
    }

    void write(uint32_t src, const Subset& s, std::vector<uint8_t>& v, std::vector<uint8_t>& v1) const {
        const aiVector3D& p = m->mVertices[src];
        put_f(v, p.x), put_f(v, p.y), put_f(v, p.z);
        if (out.skinned) blend(src, s, v);
        if (a.normal && out.shader && opt.compress) {
            // SHORT4, round(32767 n), w 0: the program scales by 1/32767.
            const aiVector3D& n = m->mNormals[src];
            for (float c : {n.x, n.y, n.z, 0.0f}) {
                const int16_t q = int16_t(std::clamp(std::lround(c * 32767.0f), -32767l, 32767l));
                v.push_back(uint8_t(uint16_t(q))), v.push_back(uint8_t(uint16_t(q) >> 8));
            }
        } else if (a.normal) {
            const aiVector3D& n = m->mNormals[src];
            put_f(v, n.x), put_f(v, n.y), put_f(v, n.z);
        }
        if (a.color) put_u32(v, d3dcolor(m->mColors[0][src]));
        for (size_t i = 0; i < a.uv_sets.size(); ++i) {
            const aiVector3D& uv = m->mTextureCoords[a.uv_sets[i]][src];
            const float c[3] = {uv.x, uv.y, uv.z};
            for (unsigned d = 0; d < a.uv_dims[i]; ++d) put_f(v, c[d]);
        }
        if (mb) {
            const aiVector3D& p2 = mb->mVertices[src];
            put_f(v1, p2.x), put_f(v1, p2.y), put_f(v1, p2.z);
            const aiVector3D n2 = mb->HasNormals() ? mb->mNormals[src] : aiVector3D(0, 0, 0);
            put_f(v1, n2.x), put_f(v1, n2.y), put_f(v1, n2.z);
        }
    }
};

// The drawn index order: per subset its own copies of its vertices (a vertex shared by two subsets
// is duplicated, its palette slots differ); tweened vertices joined on both frames' attributes.
// Fills the vertex buffers and the subsets' ranges; returns the indices in the drawn order and
// sets `file_order` to the same triangles in the file's order.
std::vector<uint32_t> write_vertices(const VertexWriter& w, const std::vector<uint32_t>& tri, uint32_t mesh_index,
                                     const ImportLog& log, BuiltMesh& out, std::vector<uint32_t>& file_order) {
    std::vector<uint32_t> indices;
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
                check_finite(w.m, w.mb, src, w.a.uv_sets, mesh_index, out.name, log);
                w.write(src, s, v, v1);
                uint32_t id;
                if (w.mb) {  // join identical vertices of both frames
                    std::string key(v.begin(), v.end());
                    key.append(v1.begin(), v1.end());
                    auto e = seen.emplace(std::move(key), next);
                    if (e.second) {
                        id = next++;
                        out.vb0.insert(out.vb0.end(), v.begin(), v.end());
                        out.vb1.insert(out.vb1.end(), v1.begin(), v1.end());
                    } else {
                        id = e.first->second;
                    }
                } else {
                    id = next++;
                    out.vb0.insert(out.vb0.end(), v.begin(), v.end());
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
        reorder(rel, s.vertex_count, w.opt.order, w.opt.seed + uint32_t(&s - out.subsets.data()));
        for (uint32_t r : rel) indices.push_back(r + s.first_vertex);
    }
    out.vertices = next;
    return indices;
}

void write_indices(const std::vector<uint32_t>& indices, uint32_t mesh_index, const ImportLog& log, BuiltMesh& out) {
    out.triangles = uint32_t(indices.size() / 3);
    if (out.vertices > (1u << 24))
        log.fail(fmt::format("mesh {} (\"{}\"): {} vertices: over vpsim's limit of 16,777,216 per mesh", mesh_index,
                             out.name, out.vertices));
    out.index32 = out.vertices > 65536;
    for (uint32_t i : indices) {
        if (out.index32) put_u32(out.ib, i);
        else out.ib.push_back(uint8_t(i)), out.ib.push_back(uint8_t(i >> 8));
    }
}

}  // namespace

BuiltMesh build_mesh(const aiMesh* m, const aiMesh* mb, uint32_t mesh_index, const ImportOptions& opt, ImportLog& log) {
    BuiltMesh out;
    out.name = m->mName.length ? m->mName.C_Str() : fmt::format("mesh{}", mesh_index);
    out.source_index = mesh_index;
    const uint32_t nv = m->mNumVertices;
    if (mb && (mb->mNumVertices != nv || mb->mNumFaces != m->mNumFaces))
        log.fail(fmt::format("mesh {} (\"{}\"): the two frames differ in vertices ({} / {}) or faces ({} / {}): "
                             "cannot tween",
                             mesh_index, out.name, nv, mb->mNumVertices, m->mNumFaces, mb->mNumFaces));
    const std::vector<uint32_t> tri = triangles_of(m);
    const Attributes a = attributes_of(m, mesh_index, out.name, log);

    Influences infl;
    if (m->HasBones() && mb)
        log.note(fmt::format("mesh {} (\"{}\"): bones ignored (the model is tweened)", mesh_index, out.name));
    if (m->HasBones() && !mb) {
        infl = skin(m, tri, mesh_index, opt, out, log);
    } else {
        Subset s;
        for (size_t t = 0; t < tri.size() / 3; ++t) s.triangles.push_back(uint32_t(t));
        out.subsets.push_back(std::move(s));
    }
    uint32_t weights = 0;
    const std::string fvf = vertex_fvf(out, a, weights);

    std::vector<uint32_t> file_order;
    const std::vector<uint32_t> indices =
        write_vertices(VertexWriter{m, mb, a, opt, infl, out, weights}, tri, mesh_index, log, out, file_order);
    write_indices(indices, mesh_index, log, out);
    // ACMR: the file's order (the source triangles as Assimp gives them) against meshoptimizer's
    // order of the same triangles, and the order drawn. Tweened meshes: Assimp's vertices are per
    // face corner; the order is measured on the vertices joined over both frames.
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
        out.declaration = tween_declaration(a);
    } else if (out.shader) {
        out.declaration = skin_shader_declaration(a, opt.compress);
        out.program = skin_program(a.normal, !a.uv_sets.empty());
    } else {
        out.fvf = fvf;
    }
    return out;
}

}  // namespace vpsim::import::detail

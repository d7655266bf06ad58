// vpsim import through Assimp: docs/import.md describes every choice made here. The stages of an
// import are SceneBuild's (below); one mesh is import_mesh.cpp's, the camera and the lights are
// import_rig.cpp's, writing the files is import_write.cpp's.
#include "model/import/assimp_import.h"

#include "model/common/printable.h"
#include "model/import/import_detail.h"
#include "model/import/import_mesh.h"
#include "model/import/import_rig.h"

#include <assimp/Importer.hpp>
#include <assimp/config.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace vpsim::import {

namespace {

namespace fs = std::filesystem;
using namespace detail;

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
             NodeTransforms& out) {
    auto it = local_override.find(node->mName.C_Str());
    const aiMatrix4x4 g = parent * (it != local_override.end() ? it->second : node->mTransformation);
    out.global[node] = g;
    out.by_name.emplace(node->mName.C_Str(), node);
    for (unsigned i = 0; i < node->mNumChildren; ++i) globals(node->mChildren[i], g, local_override, out);
}

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

namespace {

// One import, stage by stage in the order run() calls them; each stage reads what the earlier
// ones left in the members below it.
class SceneBuild {
public:
    explicit SceneBuild(const ImportOptions& o) : opt(o) { log.file = o.input; }

    ImportProduct run() {
        check_input();
        check_options();
        read_model();
        build_meshes();
        pose();
        draw_list();
        bounds();
        rig = build_rig(sa, nodes, lo, hi, log, cmds);
        buffers_and_mesh_report();
        for (const auto& r : refs) draw(r);
        return product();
    }

private:
    const ImportOptions& opt;
    ImportLog log;
    // check_options
    std::string ext;
    bool keyframes = false, tween = false;
    std::pair<uint32_t, uint32_t> frames;
    uint32_t file_frames = 0;
    // read_model
    unsigned flags = 0;
    Assimp::Importer imp_a, imp_b;
    const aiScene* sa = nullptr;
    const aiScene* sb = nullptr;  // frame B (tweening)
    // build_meshes
    std::vector<BuiltMesh> meshes;
    std::vector<bool> drawable;
    uint64_t total_tris = 0;
    // pose, draw_list, bounds, the rig
    json pose_text = "bind pose (the file's node transforms)";
    NodeTransforms nodes;
    struct DrawRef {
        unsigned mesh;
        const aiNode* node;
    };
    std::vector<DrawRef> refs;
    aiVector3D lo{1e30f, 1e30f, 1e30f}, hi{-1e30f, -1e30f, -1e30f};
    Rig rig;
    // the scene, its files and the report's figures
    json buffers = json::object(), cmds = json::array(), mesh_report = json::array();
    std::vector<OutputFile> files;
    uint64_t total_vertices = 0, draws = 0, total_bones = 0;
    std::string cur_blend = "DISABLE";
    bool cur_indexed = false;
    const aiMaterial* cur_mat = nullptr;
    aiColor4D cur_diffuse{0.8f, 0.8f, 0.8f, 1}, cur_ambient{0, 0, 0, 1}, cur_emissive{0, 0, 0, 1};

    void cmd(json c) { cmds.push_back(std::move(c)); }
    std::string side(const std::string& suffix) const { return fs::path(opt.output).stem().string() + suffix; }
    fs::path dir() const { return fs::path(opt.output).parent_path(); }

    void check_input() const {
        std::error_code ec;
        if (!fs::exists(opt.input, ec)) log.fail("cannot open: no such file");
        if (!fs::is_regular_file(opt.input, ec)) log.fail("not a regular file");
        std::ifstream probe(opt.input, std::ios::binary);
        if (!probe) log.fail("cannot open: permission denied or unreadable");
    }

    void check_options() {
        if (opt.max_blend_index == 1) log.fail("--max-blend-index 1: indexed blending needs a palette of at least 3 matrices (a triangle's 3 vertices), 0 for non-indexed blending, or 2..255");
        if (opt.max_blend_index > 255) log.fail("--max-blend-index " + std::to_string(opt.max_blend_index) + ": above D3D8's 255");
        if (opt.max_blend_matrices < 3 || opt.max_blend_matrices > 4)
            log.fail("max blend matrices " + std::to_string(opt.max_blend_matrices) + ": expected 3 or 4");
        if (opt.compress && !opt.skin_shader)
            log.fail("--compress: fixed function needs FLOAT3 normals (declaration rule 16); compressed normals need "
                     "--effect skin-shader");
        ext = lower(fs::path(opt.input).extension().string());
        keyframes = is_keyframe_format(ext);
        tween = keyframes && !opt.single_frame;
        frames = opt.frames.value_or(std::make_pair(0u, 1u));
        if (opt.time && !std::isfinite(*opt.time)) log.fail(fmt::format("--time {}: not a finite number", *opt.time));
        if (opt.frames && !keyframes && !(opt.single_frame && frames.first == 0))
            log.fail("--frame: " + ext + " is not a keyframe format (MD2, MD3, MDL, MDC); skinned models take --time");
        file_frames = header_frames(opt.input, ext);
        // Without --frame: frames 0 and 1, or frame 0 alone when the header says the file has one.
        if (keyframes && !opt.frames && file_frames == 1) tween = false, frames = {0, 0};
        if (keyframes && file_frames > 0) {
            const uint32_t top = std::max(frames.first, tween ? frames.second : frames.first);
            if (top >= file_frames)
                log.fail(fmt::format("--frame {}: the file has {} frames (0..{})", top, file_frames, file_frames - 1));
        }
        if (tween && opt.time && (*opt.time < 0 || *opt.time > 1))
            log.fail(fmt::format("--time {}: a tweened model's time is the TWEENFACTOR, 0..1", *opt.time));
    }

    void read_model() {
        // Assimp's post-processing: `assimp info`'s preset (aiProcessPreset_TargetRealtime_MaxQuality)
        // without the steps that would change what is measured: ImproveCacheLocality (reorders the
        // file's triangles) and LimitBoneWeights (vpsim keeps the strongest 4 itself and counts the
        // rest). Keyframe models skip JoinIdenticalVertices (and the steps that merge or split
        // meshes): the two frames' vertices must correspond; vpsim joins them on both frames.
        flags = aiProcessPreset_TargetRealtime_MaxQuality & ~unsigned(aiProcess_ImproveCacheLocality) &
                ~unsigned(aiProcess_LimitBoneWeights);
        if (tween)
            flags = aiProcess_Triangulate | aiProcess_SortByPType | aiProcess_GenSmoothNormals |
                    aiProcess_ValidateDataStructure;
        imp_a.SetPropertyInteger(AI_CONFIG_PP_SBP_REMOVE, 0);
        if (keyframes) {
            imp_a.SetPropertyInteger(AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, int(frames.first));
            imp_b.SetPropertyInteger(AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, int(frames.second));
        }
        uint64_t bad_faces = 0;
        sa = read(imp_a, opt.input, flags, log.file, &bad_faces);
        if (bad_faces)
            log.note(fmt::format("{} faces with a vertex index outside their mesh (as Assimp read the file): not drawn",
                                 bad_faces));
        if (tween && !opt.frames && file_frames == 0) {
            // The frame count is not in a header vpsim reads: frame 1 when the file has one, else frame 0 alone.
            try {
                sb = read(imp_b, opt.input, flags, log.file);
            } catch (const ImportError&) {
                tween = false, frames = {0, 0};
            }
        } else if (tween) {
            sb = read(imp_b, opt.input, flags, log.file);
        }
        if (sb && sb->mNumMeshes != sa->mNumMeshes) log.fail("the two frames have different meshes: cannot tween");
    }

    // Meshes: triangles only; lines and points are listed, not drawn.
    void build_meshes() {
        meshes.resize(sa->mNumMeshes);
        drawable.assign(sa->mNumMeshes, false);
        for (unsigned i = 0; i < sa->mNumMeshes; ++i) {
            const aiMesh* m = sa->mMeshes[i];
            uint64_t lines = 0, points = 0, tris = 0;
            for (unsigned f = 0; f < m->mNumFaces; ++f) {
                const unsigned n = m->mFaces[f].mNumIndices;
                (n == 1 ? points : n == 2 ? lines : tris) += 1;
            }
            if (lines)
                log.note(fmt::format("mesh {} (\"{}\"): {} lines (not drawn: the import draws triangle lists)", i,
                                     m->mName.C_Str(), lines));
            if (points)
                log.note(fmt::format("mesh {} (\"{}\"): {} points (not drawn: the import draws triangle lists)", i,
                                     m->mName.C_Str(), points));
            if (tris == 0) continue;
            meshes[i] = build_mesh(m, sb ? sb->mMeshes[i] : nullptr, i, opt, log);
            drawable[i] = true;
            total_tris += meshes[i].triangles;
        }
        if (total_tris == 0) log.fail("the model has no triangles");
    }

    // Node transforms (animation 0 at --time for skinned models, else as in the file).
    void pose() {
        std::map<std::string, aiMatrix4x4> local_override;
        if (opt.time && !tween) {
            if (sa->mNumAnimations == 0) log.fail("--time: the model has no animation");
            const aiAnimation* an = sa->mAnimations[0];
            const double tps = an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0;
            if (!std::isfinite(*opt.time * tps))
                log.fail(fmt::format("--time {}: at animation 0's {} ticks per second the tick is not finite",
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
            pose_text = fmt::format("animation 0 (\"{}\") at {} s = tick {}", an->mName.C_Str(), *opt.time, ticks);
        }
        globals(sa->mRootNode, aiMatrix4x4(), local_override, nodes);
    }

    // Draw list: every node's meshes with the node's global transform.
    void draw_list() {
        std::vector<const aiNode*> stack{sa->mRootNode};
        while (!stack.empty()) {
            const aiNode* n = stack.back();
            stack.pop_back();
            for (unsigned i = 0; i < n->mNumMeshes; ++i)
                if (drawable[n->mMeshes[i]]) refs.push_back({n->mMeshes[i], n});
            for (unsigned c = n->mNumChildren; c-- > 0;) stack.push_back(n->mChildren[c]);
        }
    }

    // Bounding box in world space (skinned meshes: the bind pose through their node).
    void bounds() {
        for (const auto& r : refs) {
            const aiMesh* m = sa->mMeshes[r.mesh];
            const aiMatrix4x4& g = nodes.global.at(r.node);
            for (unsigned v = 0; v < m->mNumVertices; ++v) {
                const aiVector3D p = g * m->mVertices[v];
                lo.x = std::min(lo.x, p.x), lo.y = std::min(lo.y, p.y), lo.z = std::min(lo.z, p.z);
                hi.x = std::max(hi.x, p.x), hi.y = std::max(hi.y, p.y), hi.z = std::max(hi.z, p.z);
            }
        }
        if (!(lo.x <= hi.x) || !std::isfinite(lo.x) || !std::isfinite(hi.x)) log.fail("the model's vertices are not finite");
    }

    // Per drawable mesh: its buffers (side files), its vertex shader and its row in the report.
    void buffers_and_mesh_report() {
        for (unsigned i = 0; i < meshes.size(); ++i) {
            if (!drawable[i]) continue;
            const BuiltMesh& b = meshes[i];
            const std::string base = fmt::format("m{}", i);
            files.push_back({(dir() / side("." + base + ".vb")).string(), std::string(b.vb0.begin(), b.vb0.end())});
            buffers[base + ".vb"] = {{"file", side("." + base + ".vb")}};
            if (!b.vb1.empty()) {
                files.push_back(
                    {(dir() / side("." + base + ".frame2.vb")).string(), std::string(b.vb1.begin(), b.vb1.end())});
                buffers[base + ".frame2.vb"] = {{"file", side("." + base + ".frame2.vb")}};
            }
            files.push_back({(dir() / side("." + base + ".ib")).string(), std::string(b.ib.begin(), b.ib.end())});
            buffers[base + ".ib"] = {{"file", side("." + base + ".ib")}, {"format", b.index32 ? "INDEX32" : "INDEX16"}};
            if (b.shader)
                cmd({{"op", "CreateVertexShader"}, {"name", base + ".skin"}, {"declaration", {{"text", b.declaration}}},
                     {"function", {{"asm", b.program}}}});
            else if (!b.declaration.empty())
                cmd({{"op", "CreateVertexShader"}, {"name", base + ".tween"}, {"declaration", {{"text", b.declaration}}}});
            total_vertices += b.vertices;
            total_bones += b.offsets.size();
            mesh_report.push_back(mesh_row(i, b));
        }
    }

    json mesh_row(unsigned i, const BuiltMesh& b) {
        json mr = {{"mesh", i}, {"name", b.name}, {"vertices", b.vertices}, {"triangles", b.triangles},
                   {"source_vertices", sa->mMeshes[i]->mNumVertices}, {"index_format", b.index32 ? "INDEX32" : "INDEX16"},
                   {"stride", b.stride0}};
        if (!b.fvf.empty()) mr["fvf"] = b.fvf;
        else mr["declaration"] = b.declaration;
        if (b.shader) mr["program"] = b.program;
        mr["acmr_file"] = b.acmr_file;
        mr["acmr_optimised"] = b.acmr_optimised;
        mr["acmr_drawn"] = b.acmr_drawn;
        if (!b.skinned) return mr;
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
            log.note(fmt::format("mesh {} (\"{}\"): {} bone weights beyond the strongest {} per vertex dropped (renormalised)",
                                 i, b.name, b.dropped_weights, std::min<uint32_t>(4, opt.max_blend_matrices)));
        if (b.weights_dropped_for_palette)
            log.note(fmt::format("mesh {} (\"{}\"): {} bone weights dropped so that each triangle's bones fit a palette",
                                 i, b.name, b.weights_dropped_for_palette));
        if (b.unweighted_vertices)
            log.note(fmt::format("mesh {} (\"{}\"): {} vertices without a bone weight bound to bone 0", i, b.name,
                                 b.unweighted_vertices));
        return mr;
    }

    void set_blend(const std::string& vb, bool indexed) {
        if (vb != cur_blend) cmd({{"op", "SetRenderState"}, {"state", "VERTEXBLEND"}, {"value", vb}}), cur_blend = vb;
        if (indexed != cur_indexed)
            cmd({{"op", "SetRenderState"}, {"state", "INDEXEDVERTEXBLENDENABLE"}, {"value", indexed}}), cur_indexed = indexed;
    }

    // The mesh's material, when it differs from the last one set.
    void material(const aiMesh* m) {
        const aiMaterial* mat = m->mMaterialIndex < sa->mNumMaterials ? sa->mMaterials[m->mMaterialIndex] : nullptr;
        if (!mat || mat == cur_mat) return;
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

    // --effect skin-shader: the program's constants (import_mesh.cpp's skin_program): view x
    // projection, light, colours.
    void skin_shader_constants() {
        Mat vp{};
        for (int i = 0; i < 4; ++i)
            for (int j = 0; j < 4; ++j)
                for (int k = 0; k < 4; ++k) vp[i][j] += rig.view[i][k] * rig.proj[k][j];
        json c = json::array();
        for (int col = 0; col < 4; ++col) c.push_back({vp[0][col], vp[1][col], vp[2][col], vp[3][col]});
        c.push_back({3, 1, 0, 1.0 / 32767});
        c.push_back({rig.shader_light[0], rig.shader_light[1], rig.shader_light[2], 0});
        c.push_back({rig.shader_diffuse[0] * cur_diffuse.r, rig.shader_diffuse[1] * cur_diffuse.g,
                     rig.shader_diffuse[2] * cur_diffuse.b, cur_diffuse.a});
        const float amb = 32.0f / 255.0f;
        c.push_back({amb * cur_ambient.r + cur_emissive.r, amb * cur_ambient.g + cur_emissive.g,
                     amb * cur_ambient.b + cur_emissive.b, 0});
        cmd({{"op", "SetVertexShaderConstant"}, {"register", 0}, {"values", c}});
    }

    // A subset's bone palette: the program's constants (skin shader) or WORLDMATRIX(k) and the
    // blend states (fixed function).
    void palette(const BuiltMesh& b, const Subset& s) {
        if (b.shader) {
            // At c10: 3 rows of each bone's matrix (column-vector form).
            json c = json::array();
            for (size_t k = 0; k < s.bones.size(); ++k) {
                const aiMatrix4x4 g = nodes.of(b.bone_names[s.bones[k]]) * b.offsets[s.bones[k]];
                for (unsigned row = 0; row < 3; ++row) c.push_back({g[row][0], g[row][1], g[row][2], g[row][3]});
            }
            cmd({{"op", "SetVertexShaderConstant"}, {"register", kPaletteBase}, {"values", c}});
        } else if (b.skinned) {
            // WORLDMATRIX(k) = bone k's global transform x its offset.
            for (size_t k = 0; k < s.bones.size(); ++k) {
                const aiMatrix4x4 g = nodes.of(b.bone_names[s.bones[k]]);
                cmd({{"op", "SetTransform"}, {"state", fmt::format("WORLDMATRIX({})", k)},
                     {"matrix", mat_json(to_d3d(g * b.offsets[s.bones[k]]))}});
            }
            const uint32_t n = b.indexed ? b.blend_count : uint32_t(s.bones.size());
            set_blend(n <= 1 ? "0WEIGHTS" : fmt::format("{}WEIGHTS", n - 1), b.indexed);
        }
    }

    // One node's mesh: material, shader, streams, blend or tween states, world matrix, and a draw
    // per subset.
    void draw(const DrawRef& r) {
        const BuiltMesh& b = meshes[r.mesh];
        const std::string base = fmt::format("m{}", r.mesh);
        material(sa->mMeshes[r.mesh]);
        if (b.shader) cmd({{"op", "SetVertexShader"}, {"shader", base + ".skin"}});
        else if (b.declaration.empty()) cmd({{"op", "SetVertexShader"}, {"fvf", b.fvf}});
        else cmd({{"op", "SetVertexShader"}, {"shader", base + ".tween"}});
        if (b.shader) skin_shader_constants();
        cmd({{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", base + ".vb"}, {"stride", b.stride0}});
        if (!b.vb1.empty())
            cmd({{"op", "SetStreamSource"}, {"stream", 1}, {"buffer", base + ".frame2.vb"}, {"stride", b.stride1}});
        cmd({{"op", "SetIndices"}, {"buffer", base + ".ib"}, {"base_vertex", 0}});
        if (!b.declaration.empty() && !b.shader) {
            set_blend("TWEENING", false);
            cmd({{"op", "SetRenderState"}, {"state", "TWEENFACTOR"}, {"value", opt.time.value_or(0.5)}});
        }
        if (!b.skinned) {
            if (b.declaration.empty()) set_blend("DISABLE", false);
            cmd({{"op", "SetTransform"}, {"state", "WORLD"}, {"matrix", mat_json(to_d3d(nodes.global.at(r.node)))}});
        }
        for (const auto& s : b.subsets) {
            palette(b, s);
            cmd({{"op", "DrawIndexedPrimitive"}, {"type", "trianglelist"}, {"min_index", s.first_vertex},
                 {"num_vertices", s.vertex_count}, {"start_index", s.start_index}, {"primitive_count", s.triangles.size()}});
            ++draws;
        }
    }

    json report() const {
        json rep;
        rep["model"] = opt.input;
        rep["format"] = ext.empty() ? "" : ext.substr(1);
        rep["scene"] = opt.output;
        rep["postprocess_flags"] = fmt::format("0x{:08X}", flags);
        rep["vertices"] = total_vertices;
        rep["triangles"] = total_tris;
        uint64_t source_vertices = 0, source_faces = 0;
        for (unsigned i = 0; i < sa->mNumMeshes; ++i)
            source_vertices += sa->mMeshes[i]->mNumVertices, source_faces += sa->mMeshes[i]->mNumFaces;
        rep["source_vertices"] = source_vertices;
        rep["source_faces"] = source_faces;
        rep["draws"] = draws;
        rep["bones"] = total_bones;
        if (keyframes) {
            rep["frames_in_file"] = file_frames;
            if (tween) rep["tween"] = {{"frames", {frames.first, frames.second}}, {"tweenfactor", opt.time.value_or(0.5)}};
            else rep["frame"] = frames.first;
        }
        rep["pose"] = pose_text;
        rep["index_order"] =
            opt.order == IndexOrder::File ? "file" : opt.order == IndexOrder::Optimised ? "optimised" : "random";
        rep["acmr_cache_entries"] = opt.cache_size;
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
        rep["rig"] = rig.description;
        rep["meshes"] = mesh_report;
        rep["not_represented"] = log.not_represented;
        return rep;
    }

    // JSON has no NaN or infinity: a value that is not finite is refused before anything is written.
    void check_finite(const json& scene, const json& rep) const {
        for (const auto& [what, doc] : {std::pair<const char*, const json*>{"scene", &scene}, {"report", &rep}}) {
            const std::string at = first_non_finite(*doc);
            if (at.empty()) continue;
            std::string op;
            if (doc == &scene && at.rfind("/commands/", 0) == 0) {
                const size_t k = std::stoul(at.substr(10));
                op = fmt::format(" (command {}, {})", k, scene["commands"][k].value("op", "?"));
            }
            log.fail(fmt::format("the {} would hold a value that is not finite at {}{}: the model's data or an option "
                                 "makes it NaN or infinite; nothing written",
                                 what, at, op));
        }
    }

    ImportProduct product() {
        json scene;
        scene["description"] =
            fmt::format("{} imported by vpsim import (docs/import.md)", fs::path(opt.input).filename().string());
        scene["buffers"] = buffers;
        scene["commands"] = cmds;
        const json rep = report();
        check_finite(scene, rep);
        // Names from the file (meshes, bones, materials, animations) may hold bytes that are not
        // UTF-8: written as U+FFFD, as JSON requires.
        constexpr auto utf8 = json::error_handler_t::replace;
        files.push_back({(dir() / side(".import.json")).string(), rep.dump(1, ' ', false, utf8) + "\n"});
        files.push_back({opt.output, scene.dump(1, ' ', false, utf8) + "\n"});
        ImportProduct product;
        product.report = nlohmann::json::parse(rep.dump(-1, ' ', false, utf8));
        product.files = std::move(files);
        return product;
    }
};

}  // namespace

ImportProduct build_import(const ImportOptions& opt) { return SceneBuild(opt).run(); }

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

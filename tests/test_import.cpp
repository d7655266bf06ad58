// vpsim import (model/import, docs/import.md) against oracles that do not use the importer:
// `assimp info` (Debian assimp-utils) for vertex and triangle counts; the blended positions of a
// skinned model computed here from Assimp's own bones, weights and animation keys; meshoptimizer's
// analysis of the file's own triangle order (read here through Assimp) against the ACMR the
// timing model reports; bad input.
#include "model/common/params.h"
#include "model/common/process.h"
#include "model/import/assimp_import.h"
#include "model/import/walled_import.h"
#include "model/sc/pipeline.h"
#include "model/scene/functional.h"
#include "model/scene/scene.h"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <meshoptimizer.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <regex>
#include <string>
#include <vector>

#include <unistd.h>

using namespace vpsim;
namespace fs = std::filesystem;

namespace {

const std::string kModels = "/usr/share/assimp/models/";

fs::path work_dir(const std::string& name) {
    fs::path d = fs::temp_directory_path() / fmt::format("vpsim_test_import_{}_{}", ::getpid(), name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::string slurp(const fs::path& p) {
    std::ifstream f(p, std::ios::binary);
    return std::string(std::istreambuf_iterator<char>(f), {});
}

// `assimp info FILE`: its "Vertices:" and "Faces:" lines.
std::pair<uint64_t, uint64_t> assimp_info(const std::string& model) {
    vpsim::RunOptions o;
    o.out = vpsim::Stream::Capture;
    o.err = vpsim::Stream::Null;
    const vpsim::RunResult r = vpsim::run({"assimp", "info", model}, o);
    INFO("assimp info " << model << ": " << r.describe());
    REQUIRE(r.ok());
    const std::string& out = r.out;
    std::smatch mv, mf, mt;
    REQUIRE(std::regex_search(out, mt, std::regex("\\nPrimitive Types:\\s+(\\S+)")));
    REQUIRE(mt[1] == "triangles");
    REQUIRE(std::regex_search(out, mv, std::regex("\\nVertices:\\s+(\\d+)")));
    REQUIRE(std::regex_search(out, mf, std::regex("\\nFaces:\\s+(\\d+)")));
    return {std::stoull(mv[1]), std::stoull(mf[1])};
}

import::ImportOptions options(const std::string& model, const fs::path& out) {
    import::ImportOptions o;
    o.input = model;
    o.output = out.string();
    return o;
}

// Every import these tests make succeed goes through here: the scene it wrote is re-loaded (and
// its draws run) before the test looks at it, so no test can pass on a scene that does not load.
nlohmann::json imported(const import::ImportOptions& o) {
    auto rep = import::import_model(o);
    INFO(o.input << " -> " << o.output);
    REQUIRE_NOTHROW(scene::run_functional(scene::load_scene(o.output), vs::Profile::d3d8()));
    return rep;
}

// The vertex and index counts in the written side files, from the scene's strides and formats.
std::pair<uint64_t, uint64_t> written_counts(const fs::path& scene_path) {
    const auto j = nlohmann::json::parse(slurp(scene_path));
    std::map<std::string, uint64_t> stride;
    for (const auto& c : j["commands"])
        if (c["op"] == "SetStreamSource" && c["stream"] == 0) stride[c["buffer"]] = c["stride"];
    uint64_t v = 0, idx = 0;
    for (const auto& [name, b] : j["buffers"].items()) {
        const uint64_t bytes = fs::file_size(scene_path.parent_path() / b["file"].get<std::string>());
        if (b.contains("format")) idx += bytes / (b["format"] == "INDEX16" ? 2 : 4);
        else if (stride.count(name)) v += bytes / stride[name];
    }
    return {v, idx};
}

}  // namespace

TEST_CASE("Imported static models have the vertex and triangle counts `assimp info` prints", "[import]") {
    const fs::path d = work_dir("counts");
    // Models whose every face is a triangle after Assimp's post-processing ("Primitive Types:
    // triangles"): `assimp info`'s Faces are then the triangles drawn.
    for (const char* m : {"PLY/cube.ply", "Collada/duck.dae", "3DS/fels.3ds", "MS3D/jeep1.ms3d", "B3D/WusonBlitz.b3d",
                          "OBJ/WusonOBJ.obj", "MD2/faerie.md2"}) {
        INFO(m);
        const auto [verts, faces] = assimp_info(kModels + m);
        const fs::path out = d / (fs::path(m).stem().string() + ".json");
        import::ImportOptions o = options(kModels + m, out);
        if (fs::path(m).extension() == ".md2") o.frames = std::make_pair(0u, 0u), o.single_frame = true;
        const auto rep = imported(o);
        const auto [v, idx] = written_counts(out);
        CHECK(v == verts);
        CHECK(idx == 3 * faces);
        CHECK(rep["triangles"].get<uint64_t>() == faces);
        // The scene loads from another working directory (side files relative to the scene).
        const scene::Scene s = scene::load_scene(out.string());
        const auto r = scene::run_functional(s, vs::Profile::d3d8());
        uint64_t prims = 0;
        for (const auto& dr : r.draws) prims += dr.primitives;
        CHECK(prims >= faces);  // a mesh drawn by several nodes is drawn once per node
    }
}

TEST_CASE("The file-order ACMR the timing model reports equals meshoptimizer's analysis of the file's triangles",
          "[import]") {
    const fs::path d = work_dir("acmr");
    for (const char* m : {"OBJ/spider.obj", "MS3D/jeep1.ms3d"}) {
        INFO(m);
        // The file's own order, read here as `assimp info` reads it (its preset,
        // aiProcessPreset_TargetRealtime_MaxQuality, without ImproveCacheLocality, which would
        // reorder the triangles: docs/import.md).
        Assimp::Importer imp;
        const aiScene* sc = imp.ReadFile(kModels + m, aiProcessPreset_TargetRealtime_MaxQuality &
                                                          ~unsigned(aiProcess_ImproveCacheLocality));
        REQUIRE(sc != nullptr);
        uint64_t transformed = 0, tris = 0;
        for (unsigned i = 0; i < sc->mNumMeshes; ++i) {
            const aiMesh* mesh = sc->mMeshes[i];
            std::vector<unsigned> idx;
            for (unsigned f = 0; f < mesh->mNumFaces; ++f)
                if (mesh->mFaces[f].mNumIndices == 3)
                    for (unsigned k = 0; k < 3; ++k) idx.push_back(mesh->mFaces[f].mIndices[k]);
            if (idx.empty()) continue;
            // One draw per mesh and cache state is not kept across draws: analysed per mesh.
            transformed += meshopt_analyzeVertexCache(idx.data(), idx.size(), mesh->mNumVertices, 24, 0, 0)
                               .vertices_transformed;
            tris += idx.size() / 3;
        }
        const fs::path out = d / (fs::path(m).stem().string() + ".json");
        imported(options(kModels + m, out));
        const scene::Scene s = scene::load_scene(out.string());
        ParamSet p = sc::default_params();
        p.apply_set("post_transform_cache.entries=24");
        const sc::RunResult r = sc::run_pipeline(s, p, vs::Profile::d3d8());
        CHECK(r.count("primitives") == tris);
        CHECK(r.count("shaded") == transformed);
    }
}

TEST_CASE("A skinned model's blended positions at an animation key equal the positions computed from Assimp's "
          "bones, weights and keys (fixed-function blending, and the vs.1.1 skinning program with SHORT4 normals)",
          "[import]") {
    const bool shader = GENERATE(false, true);
    INFO((shader ? "--effect skin-shader --compress" : "fixed function"));
    const std::string model = kModels + "X/BCN_Epileptic.X";
    Assimp::Importer imp;
    const aiScene* sc = imp.ReadFile(model, aiProcess_Triangulate | aiProcess_JoinIdenticalVertices);
    REQUIRE(sc != nullptr);
    REQUIRE(sc->mNumAnimations > 0);
    const aiAnimation* an = sc->mAnimations[0];
    // A pose at a key every animated channel has (no interpolation needed here): the second
    // position key of the first channel with several.
    double tick = -1;
    for (unsigned c = 0; c < an->mNumChannels && tick < 0; ++c)
        if (an->mChannels[c]->mNumPositionKeys > 2) tick = an->mChannels[c]->mPositionKeys[2].mTime;
    REQUIRE(tick > 0);
    std::map<std::string, aiMatrix4x4> local;
    for (unsigned c = 0; c < an->mNumChannels; ++c) {
        const aiNodeAnim* ch = an->mChannels[c];
        auto key_at = [&](const auto* keys, unsigned n) {
            for (unsigned i = 0; i < n; ++i)
                if (keys[i].mTime == tick || n == 1) return i;
            FAIL("channel " << ch->mNodeName.C_Str() << " has no key at tick " << tick);
            return 0u;
        };
        aiMatrix4x4 t, r, s;
        aiMatrix4x4::Translation(ch->mPositionKeys[key_at(ch->mPositionKeys, ch->mNumPositionKeys)].mValue, t);
        r = aiMatrix4x4(ch->mRotationKeys[key_at(ch->mRotationKeys, ch->mNumRotationKeys)].mValue.GetMatrix());
        aiMatrix4x4::Scaling(ch->mScalingKeys[key_at(ch->mScalingKeys, ch->mNumScalingKeys)].mValue, s);
        local[ch->mNodeName.C_Str()] = t * r * s;
    }
    std::map<std::string, aiMatrix4x4> global;
    std::function<void(const aiNode*, const aiMatrix4x4&)> walk = [&](const aiNode* n, const aiMatrix4x4& parent) {
        auto it = local.find(n->mName.C_Str());
        const aiMatrix4x4 g = parent * (it != local.end() ? it->second : n->mTransformation);
        global[n->mName.C_Str()] = g;
        for (unsigned i = 0; i < n->mNumChildren; ++i) walk(n->mChildren[i], g);
    };
    walk(sc->mRootNode, aiMatrix4x4());

    // Expected skinned positions per source position (mesh-space position -> world position),
    // with every weight (the model has at most 4 per vertex: nothing is dropped).
    std::multimap<std::array<float, 3>, aiVector3D> expected;
    for (unsigned i = 0; i < sc->mNumMeshes; ++i) {
        const aiMesh* m = sc->mMeshes[i];
        std::vector<aiVector3D> pos(m->mNumVertices, aiVector3D(0, 0, 0));
        std::vector<float> wsum(m->mNumVertices, 0);
        for (unsigned b = 0; b < m->mNumBones; ++b) {
            const aiBone* bone = m->mBones[b];
            const aiMatrix4x4 mat = global.at(bone->mName.C_Str()) * bone->mOffsetMatrix;
            for (unsigned w = 0; w < bone->mNumWeights; ++w) {
                const auto& vw = bone->mWeights[w];
                pos[vw.mVertexId] += (mat * m->mVertices[vw.mVertexId]) * vw.mWeight;
                wsum[vw.mVertexId] += vw.mWeight;
            }
        }
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            REQUIRE(wsum[v] > 0);
            const aiVector3D& p = m->mVertices[v];
            expected.emplace(std::array<float, 3>{p.x, p.y, p.z}, pos[v] / wsum[v]);
        }
    }

    const fs::path d = work_dir("skin");
    import::ImportOptions o = options(model, d / "skin.json");
    o.time = tick / (an->mTicksPerSecond > 0 ? an->mTicksPerSecond : 25.0);
    o.skin_shader = o.compress = shader;
    const auto rep = imported(o);
    for (const auto& m : rep["meshes"]) {
        CHECK(m["dropped_weights"] == 0);
        CHECK(m["weights_dropped_for_palette"] == 0);
        // 10 to 24 bones per mesh: several 4-bone subsets, one 28-bone palette for the program.
        if (shader) CHECK(m["subsets"].get<int>() == 1);
        else CHECK(m["subsets"].get<int>() > 1);
    }
    const auto j = nlohmann::json::parse(slurp(d / "skin.json"));
    auto matrix = [&](const char* state) {
        for (const auto& c : j["commands"])
            if (c["op"] == "SetTransform" && c["state"] == state) return c["matrix"].get<std::vector<std::vector<float>>>();
        FAIL("no SetTransform " << state);
        return std::vector<std::vector<float>>{};
    };
    const auto view = matrix("VIEW"), proj = matrix("PROJECTION");
    auto clip = [&](const aiVector3D& w) {
        std::array<float, 4> v{w.x, w.y, w.z, 1}, e{}, c{};
        for (int k = 0; k < 4; ++k)
            for (int r = 0; r < 4; ++r) e[k] += v[r] * view[r][k];
        for (int k = 0; k < 4; ++k)
            for (int r = 0; r < 4; ++r) c[k] += e[r] * proj[r][k];
        return c;
    };

    const scene::Scene s = scene::load_scene((d / "skin.json").string());
    const auto r = scene::run_functional(s, vs::Profile::d3d8());
    size_t checked = 0, draw_no = 0;
    for (const auto& dr : r.draws) {
        // The draw's vertex buffer: position first (FLOAT3), stride from the FVF.
        const scene::Buffer* vb = nullptr;
        uint32_t stride = 0;
        size_t draws_seen = 0;
        for (const auto& c : j["commands"]) {
            if (c["op"] == "SetStreamSource") vb = &s.buffers.at(c["buffer"].get<std::string>()), stride = c["stride"];
            if (c["op"] == "DrawIndexedPrimitive" && draws_seen++ == draw_no) break;
        }
        ++draw_no;
        REQUIRE(vb != nullptr);
        for (size_t k = 0; k < dr.indices.size(); ++k) {
            std::array<float, 3> p;
            std::memcpy(p.data(), vb->bytes.data() + size_t(dr.indices[k]) * stride, 12);
            auto range = expected.equal_range(p);
            REQUIRE(range.first != range.second);
            const auto& out = dr.vertices[k].pos;
            bool match = false;
            std::array<float, 4> want{};
            for (auto it = range.first; it != range.second && !match; ++it) {
                want = clip(it->second);
                match = true;
                for (int c = 0; c < 4; ++c)
                    match &= std::fabs(out[c] - want[c]) <= 1e-4f * (std::fabs(want[3]) + 1.0f);
            }
            INFO("draw " << dr.pointer << " reference " << k << ": oPos (" << out[0] << ", " << out[1] << ", " << out[2]
                         << ", " << out[3] << "), expected (" << want[0] << ", " << want[1] << ", " << want[2] << ", "
                         << want[3] << ")");
            CHECK(match);
            ++checked;
        }
    }
    CHECK(checked == 3 * rep["triangles"].get<size_t>());
}

TEST_CASE("MD2 frames are tweened: two streams, TWEENFACTOR, positions between the two frames", "[import]") {
    const std::string model = kModels + "MD2/sydney.md2";
    const fs::path d = work_dir("tween");
    import::ImportOptions o = options(model, d / "t.json");
    o.frames = std::make_pair(0u, 5u);
    o.time = 0.25;
    const auto rep = imported(o);
    REQUIRE(rep.contains("tween"));
    const scene::Scene s = scene::load_scene((d / "t.json").string());
    const auto r = scene::run_functional(s, vs::Profile::d3d8());
    REQUIRE(r.draws.size() == 1);
    // Oracle: Assimp's frame 0 and frame 5, positions mixed 0.75 / 0.25 here, through the scene's camera.
    Assimp::Importer ia, ib;
    ia.SetPropertyInteger(AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, 0);
    ib.SetPropertyInteger(AI_CONFIG_IMPORT_GLOBAL_KEYFRAME, 5);
    const aiScene* a = ia.ReadFile(model, 0);
    const aiScene* b = ib.ReadFile(model, 0);
    REQUIRE((a && b));
    const aiMesh *ma = a->mMeshes[0], *mb = b->mMeshes[0];
    REQUIRE(ma->mNumVertices == mb->mNumVertices);
    // Every drawn vertex's stream-0 position is a frame-0 vertex; its output is the tween of it.
    const auto j = nlohmann::json::parse(slurp(d / "t.json"));
    std::vector<std::vector<float>> view, proj;
    for (const auto& c : j["commands"])
        if (c["op"] == "SetTransform" && c["state"] == "VIEW") view = c["matrix"].get<std::vector<std::vector<float>>>();
        else if (c["op"] == "SetTransform" && c["state"] == "PROJECTION") proj = c["matrix"].get<std::vector<std::vector<float>>>();
    const scene::Buffer& vb0 = s.buffers.at("m0.vb");
    const scene::Buffer& vb1 = s.buffers.at("m0.frame2.vb");
    const auto& dr = r.draws[0];
    const uint32_t stride0 = uint32_t(vb0.bytes.size() / (vb1.bytes.size() / 24));
    size_t checked = 0;
    for (size_t k = 0; k < dr.indices.size(); k += 7) {
        std::array<float, 3> p0, p1;
        std::memcpy(p0.data(), vb0.bytes.data() + size_t(dr.indices[k]) * stride0, 12);
        std::memcpy(p1.data(), vb1.bytes.data() + size_t(dr.indices[k]) * 24, 12);
        // The pair must be one of Assimp's (frame 0, frame 5) vertex pairs.
        bool found = false;
        for (unsigned v = 0; v < ma->mNumVertices && !found; ++v)
            found = ma->mVertices[v].x == p0[0] && ma->mVertices[v].y == p0[1] && ma->mVertices[v].z == p0[2] &&
                    mb->mVertices[v].x == p1[0] && mb->mVertices[v].y == p1[1] && mb->mVertices[v].z == p1[2];
        CHECK(found);
        // The node's transform (MD2: the root node, Assimp's axis change) places it in the world.
        const aiVector3D t = a->mRootNode->mTransformation *
                             aiVector3D(p0[0] * 0.75f + p1[0] * 0.25f, p0[1] * 0.75f + p1[1] * 0.25f, p0[2] * 0.75f + p1[2] * 0.25f);
        REQUIRE(a->mRootNode->mNumMeshes == 1);
        std::array<float, 4> w{t.x, t.y, t.z, 1}, e{}, c{};
        for (int q = 0; q < 4; ++q)
            for (int rr = 0; rr < 4; ++rr) e[q] += w[rr] * view[rr][q];
        for (int q = 0; q < 4; ++q)
            for (int rr = 0; rr < 4; ++rr) c[q] += e[rr] * proj[rr][q];
        for (int q = 0; q < 4; ++q) CHECK(std::fabs(dr.vertices[k].pos[q] - c[q]) <= 1e-4f * (std::fabs(c[3]) + 1.0f));
        ++checked;
    }
    CHECK(checked > 100);
}

TEST_CASE("Bad input: a clear error naming the file, and nothing written", "[import]") {
    const fs::path d = work_dir("bad");
    auto expect_error = [&](const import::ImportOptions& o, const std::string& what) {
        INFO(o.input << ": expecting \"" << what << "\"");
        try {
            import::import_model(o);
            FAIL("no error");
        } catch (const import::ImportError& e) {
            const std::string m = e.what();
            CHECK(m.rfind(o.input + ": ", 0) == 0);
            CHECK(m.find(what) != std::string::npos);
        }
        CHECK(fs::is_empty(d));
    };
    expect_error(options((d / "missing.obj").string(), d / "o.json"), "no such file");
    {
        const fs::path junk = fs::temp_directory_path() / fmt::format("vpsim_test_import_{}_junk.obj", ::getpid());
        std::ofstream(junk) << "this is not a model\n";
        expect_error(options(junk.string(), d / "o.json"), "");
        fs::remove(junk);
    }
    // Lines and points only: no triangles.
    expect_error(options(kModels + "OBJ/testline.obj", d / "o.json"), "no triangles");
    expect_error(options(kModels + "OBJ/testpoints.obj", d / "o.json"), "no triangles");
    {
        import::ImportOptions o = options(kModels + "MD2/sydney.md2", d / "o.json");
        o.frames = std::make_pair(0u, 100000u);
        expect_error(o, "frames");
    }
    {
        import::ImportOptions o = options(kModels + "OBJ/spider.obj", d / "o.json");
        o.max_blend_index = 1;
        expect_error(o, "--max-blend-index 1");
    }
    {
        import::ImportOptions o = options(kModels + "OBJ/spider.obj", d / "o.json");
        o.time = 1.0;
        expect_error(o, "no animation");
    }
    // Unwritable output (a directory that cannot be made, under a plain file): the error names it,
    // nothing is left behind beside that file. (A directory that does not exist yet is made.)
    {
        const fs::path plain = d / "plain_file";
        std::ofstream(plain) << "x";
        import::ImportOptions o = options(kModels + "OBJ/spider.obj", plain / "sub" / "o.json");
        try {
            import::import_model(o);
            FAIL("no error");
        } catch (const import::ImportError& e) {
            CHECK_THAT(e.what(), Catch::Contains("cannot make the directory " + (plain / "sub").string()));
        }
        CHECK(std::distance(fs::directory_iterator(d), fs::directory_iterator()) == 1);
        fs::remove(plain);
    }
}

TEST_CASE("The walled import (a forked reading process) writes byte for byte what the in-process import writes",
          "[import]") {
    const fs::path a = work_dir("wall_in"), b = work_dir("wall_out");
    for (const char* m : {"X/BCN_Epileptic.X", "MD2/sydney.md2"}) {
        INFO(m);
        fs::remove_all(a), fs::remove_all(b), fs::create_directories(a), fs::create_directories(b);
        import::ImportOptions o = options(kModels + m, a / "s.json");
        const auto rep_in = imported(o);
        o.output = (b / "s.json").string();
        const auto rep_out = import::import_model_walled(o, import::ImportLimits{});
        CHECK(rep_out["vertices"] == rep_in["vertices"]);
        size_t files = 0;
        for (const auto& e : fs::directory_iterator(a)) {
            INFO(e.path().filename());
            const std::string x = slurp(e.path()), y = slurp(b / e.path().filename());
            if (e.path().string().find(".import.json") == std::string::npos) {
                CHECK(x == y);
            } else {  // the report names the scene's path, which differs
                auto jx = nlohmann::json::parse(x), jy = nlohmann::json::parse(y);
                jx.erase("scene"), jy.erase("scene");
                CHECK(jx == jy);
            }
            ++files;
        }
        CHECK(files == size_t(std::distance(fs::directory_iterator(b), fs::directory_iterator())));
        CHECK(files >= 4);
    }
}

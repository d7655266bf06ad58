// Generated meshes in three index orders (model/scene/generators.h: raw, optimised by
// meshoptimizer, random) and the ACMR the timing model reports for them, against
// meshoptimizer's own analysis of the same indices.
#include "model/common/params.h"
#include "model/common/presets.h"
#include "model/sc/pipeline.h"
#include "model/scene/generators.h"
#include "model/scene/scene.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <fmt/ranges.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <array>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

using namespace vpsim;

namespace {

struct Mesh {
    const char* label;
    nlohmann::json generator;  // without streams / order
};

const std::vector<Mesh>& meshes() {
    static const std::vector<Mesh> m{
        {"grid 20x20", {{"generator", "grid"}, {"columns", 20}, {"rows", 20}}},
        {"sphere 24x12", {{"generator", "sphere"}, {"slices", 24}, {"stacks", 12}}},
        {"torus 32x16", {{"generator", "torus"}, {"rings", 32}, {"sides", 16}}},
    };
    return m;
}

scene::Scene mesh_scene(const Mesh& m, const std::string& order, uint32_t seed = 1) {
    nlohmann::json g = m.generator;
    g["index_order"] = order;
    if (order == "random") g["seed"] = seed;
    g["streams"] = {{"pos", {{{"attribute", "position"}, {"type", "FLOAT3"}}}}};
    const nlohmann::json j = {
        {"buffers", {{"m", g}}},
        {"commands",
         {{{"op", "CreateVertexShader"},
           {"name", "s"},
           {"declaration", {{"text", "D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3), D3DVSD_END()"}}},
           {"function", {{"asm", "vs.1.1\nmov oPos, v0\n"}}}},
          {{"op", "SetVertexShader"}, {"shader", "s"}},
          {{"op", "SetStreamSource"}, {"stream", 0}, {"buffer", "m.pos"}, {"stride", 12}},
          {{"op", "SetIndices"}, {"buffer", "m.indices"}},
          {{"op", "DrawIndexedPrimitive"}, {"type", "trianglelist"}}}}};
    return scene::parse_scene(j, "", fmt::format("<{} {}>", m.label, order));
}

std::vector<unsigned> indices_of(const scene::Scene& s) {
    const scene::Buffer& b = s.buffers.at("m.indices");
    std::vector<unsigned> v(b.index_count());
    for (uint64_t i = 0; i < v.size(); ++i) v[i] = b.index(i);
    return v;
}

size_t vertices_of(const scene::Scene& s) { return s.buffers.at("m.pos").bytes.size() / 12; }

}  // namespace

TEST_CASE("The ACMR vpsim reports for a FIFO of N entries equals meshoptimizer's analysis of the same indices",
          "[workloads]") {
    for (const Mesh& m : meshes())
        for (const char* order : {"raw", "optimised", "random"}) {
            const scene::Scene s = mesh_scene(m, order);
            const std::vector<unsigned> idx = indices_of(s);
            for (unsigned n : {3u, 8u, 16u, 24u, 32u}) {
                INFO(m.label << ", " << order << ", FIFO of " << n);
                ParamSet p = sc::default_params();
                p.apply_set(fmt::format("post_transform_cache.entries={}", n));
                const sc::RunResult r = sc::run_pipeline(s, p, vs::Profile::d3d8());
                const meshopt_VertexCacheStatistics st =
                    meshopt_analyzeVertexCache(idx.data(), idx.size(), vertices_of(s), n, 0, 0);
                CHECK(r.count("shaded") == st.vertices_transformed);
                CHECK(r.count("primitives") == idx.size() / 3);
                CHECK(float(r.real("acmr")) == Approx(st.acmr).epsilon(1e-6));
            }
        }
}

TEST_CASE("meshoptimizer's order beats row order and a random order on a 24-entry FIFO, and random is reproducible",
          "[workloads]") {
    const Mesh& sphere = meshes()[1];
    auto acmr = [](const scene::Scene& s) {
        const auto idx = indices_of(s);
        return meshopt_analyzeVertexCache(idx.data(), idx.size(), vertices_of(s), 24, 0, 0).acmr;
    };
    const auto raw = mesh_scene(sphere, "raw"), opt = mesh_scene(sphere, "optimised");
    const uint32_t seed = uint32_t(test_seed("index order random"));
    const auto rnd = mesh_scene(sphere, "random", seed), rnd2 = mesh_scene(sphere, "random", seed),
               other = mesh_scene(sphere, "random", seed + 1);
    CHECK(acmr(opt) < acmr(raw));
    CHECK(acmr(opt) < acmr(rnd));
    CHECK(acmr(raw) < acmr(rnd));
    CHECK(indices_of(rnd) == indices_of(rnd2));
    CHECK(indices_of(rnd) != indices_of(other));
    // Every order draws the same triangles (each a rotation-free copy of a raw one).
    auto sorted_tris = [](std::vector<unsigned> v) {
        std::vector<std::array<unsigned, 3>> t;
        for (size_t i = 0; i < v.size(); i += 3) t.push_back({v[i], v[i + 1], v[i + 2]});
        std::sort(t.begin(), t.end());
        return t;
    };
    CHECK(sorted_tris(indices_of(rnd)) == sorted_tris(indices_of(raw)));
    // meshoptimizer may rotate a triangle's corners (keeping its winding), so compare as sets of
    // rotations normalised to the smallest index first.
    auto canon = [&](std::vector<unsigned> v) {
        for (size_t i = 0; i < v.size(); i += 3) {
            size_t k = 0;
            if (v[i + 1] < v[i + k]) k = 1;
            if (v[i + 2] < v[i + k]) k = 2;
            std::rotate(v.begin() + long(i), v.begin() + long(i + k), v.begin() + long(i + 3));
        }
        return sorted_tris(v);
    };
    CHECK(canon(indices_of(opt)) == canon(indices_of(raw)));
}

TEST_CASE("A bad index order or a seed without a random order is refused with its JSON pointer", "[workloads]") {
    nlohmann::json j = {{"buffers",
                         {{"m",
                           {{"generator", "grid"},
                            {"index_order", "sorted"},
                            {"streams", {{"pos", {{{"attribute", "position"}, {"type", "FLOAT3"}}}}}}}}}},
                        {"commands", nlohmann::json::array()}};
    CHECK_THROWS_WITH(scene::parse_scene(j, "", "t"),
                      Catch::Contains("/buffers/m/index_order") && Catch::Contains("\"raw\", \"optimised\" or \"random\""));
    j["buffers"]["m"]["index_order"] = "raw";
    j["buffers"]["m"]["seed"] = 3;
    CHECK_THROWS_WITH(scene::parse_scene(j, "", "t"), Catch::Contains("/buffers/m/seed"));
    j["buffers"]["m"].erase("seed");
    j["buffers"]["m"]["index_order"] = "optimised";
    j["buffers"]["m"]["indices"] = nullptr;
    CHECK_THROWS_WITH(scene::parse_scene(j, "", "t"), Catch::Contains("needs an index buffer"));
}

// ------------------------------------------------------------------------------ fixed function

namespace {

// What each fixed-function workload needs of the device's D3DCAPS8 (docs/fixed-function.md,
// "What cannot be drawn"), read off its scene by hand: enabled lights (MaxActiveLights), world
// matrices per vertex of VERTEXBLEND (nWEIGHTS blends n + 1, indexed or not: MaxVertexBlendMatrices)
// and the largest WORLDMATRIX index of indexed blending (MaxVertexBlendMatrixIndex; -1: not
// indexed). check_drawable refuses by the first of these three that the device lacks. A
// workload drawn with software vertex processing (docs/scenes.md) is checked against the
// runtime's caps instead (unlimited lights, 4 blend matrices, index 255).
struct FfNeeds {
    unsigned lights = 0, blend_matrices = 1;
    int matrix_index = -1;
    bool software = false;
};

const std::map<std::string, FfNeeds>& ff_workloads() {
    static const std::map<std::string, FfNeeds> m{
        {"ff_directional_1", {1, 1, -1}}, {"ff_directional_4", {4, 1, -1}}, {"ff_directional_8", {8, 1, -1}},
        {"ff_point_1", {1, 1, -1}},       {"ff_point_4", {4, 1, -1}},       {"ff_point_8", {8, 1, -1}},
        {"ff_spot_1", {1, 1, -1}},        {"ff_spot_4", {4, 1, -1}},        {"ff_spot_8", {8, 1, -1}},
        {"ff_specular_local", {2, 1, -1}}, {"ff_fog", {1, 1, -1}},          {"ff_reflection", {1, 1, -1}},
        {"ff_blend2", {1, 2, -1}},        {"ff_blend_indexed", {1, 2, 3, true}},  {"ff_tween", {1, 1, -1}},
        {"ff_point_sprites", {0, 1, -1}},
    };
    return m;
}

// The cap a device with these parameters refuses the workload by ("" when it allows it).
std::string refusing_cap(const FfNeeds& n, const ParamSet& p) {
    if (n.software) return n.blend_matrices > 4 || n.matrix_index > 255 ? "MaxVertexBlendMatrices" : "";
    if (n.lights > p.get_uint("fixed_function.max_active_lights")) return "MaxActiveLights";
    if (n.blend_matrices > p.get_uint("fixed_function.max_vertex_blend_matrices")) return "MaxVertexBlendMatrices";
    if (n.matrix_index >= 0 && uint64_t(n.matrix_index) > p.get_uint("fixed_function.max_vertex_blend_matrix_index"))
        return "MaxVertexBlendMatrixIndex";
    return "";
}

void check_ff_workloads(const std::string& preset, const std::vector<std::string>& sets) {
    ParamSet p = sc::default_params();
    apply_preset(p, preset);
    for (const auto& s : sets) p.apply_set(s);
    for (const auto& [name, needs] : ff_workloads()) {
        const std::string file = std::string(VPSIM_SOURCE_DIR) + "/examples/workloads/" + name + ".json";
        const std::string cap = refusing_cap(needs, p);
        INFO(preset << " " << fmt::format("{}", fmt::join(sets, " ")) << " " << name
                    << (cap.empty() ? ": should run" : ": should be refused naming " + cap));
        const scene::Scene s = scene::load_scene(file);
        if (cap.empty()) {
            const sc::RunResult r = sc::run_pipeline(s, p, vs::Profile::d3d8());
            CHECK(r.count("shaded") > 0);
            CHECK(r.cycles > 0);
            CHECK(r.cycle_errors.empty());
        } else {
            try {
                (void)sc::run_pipeline(s, p, vs::Profile::d3d8());
                FAIL_CHECK("it ran");
            } catch (const scene::SceneError& e) {
                INFO(e.what());
                CHECK(std::string(e.what()).find(cap) != std::string::npos);
                CHECK(std::string(e.what()).find("fixed function") != std::string::npos);
            }
        }
    }
}

}  // namespace

TEST_CASE("Every fixed-function workload is in the table of what it needs of the caps", "[workloads][ff]") {
    std::set<std::string> files;
    for (const auto& e : std::filesystem::directory_iterator(std::string(VPSIM_SOURCE_DIR) + "/examples/workloads"))
        if (e.path().extension() == ".json" && e.path().stem().string().rfind("ff_", 0) == 0) files.insert(e.path().stem().string());
    std::set<std::string> table;
    for (const auto& [name, needs] : ff_workloads()) table.insert(name);
    CHECK(files == table);
}

TEST_CASE("Each fixed-function workload runs on every preset whose caps allow it, and is refused naming the cap on the others",
          "[workloads][ff]") {
    for (const Preset& pr : presets()) {
        SECTION(pr.name) { check_ff_workloads(pr.name, {}); }
    }
}

TEST_CASE("With other caps the same workloads run or are refused by them (indexed blending, lights, blend matrices)",
          "[workloads][ff]") {
    SECTION("MaxVertexBlendMatrixIndex 3: indexed blending runs (in software whatever the preset's caps)") {
        check_ff_workloads("nv20", {"fixed_function.max_vertex_blend_matrix_index=3"});
    }
    SECTION("MaxActiveLights 4, MaxVertexBlendMatrices 1: 8 lights and 2-matrix blending are refused") {
        check_ff_workloads("nv20", {"fixed_function.max_active_lights=4", "fixed_function.max_vertex_blend_matrices=1"});
    }
}

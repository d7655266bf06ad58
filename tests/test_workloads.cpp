// Generated meshes in three index orders (model/scene/generators.h: raw, optimised by
// meshoptimizer, random) and the ACMR the timing model reports for them, against
// meshoptimizer's own analysis of the same indices.
#include "model/common/params.h"
#include "model/sc/pipeline.h"
#include "model/scene/generators.h"
#include "model/scene/scene.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>
#include <fmt/format.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <array>
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
                CHECK(r.shaded == st.vertices_transformed);
                CHECK(r.primitives == idx.size() / 3);
                CHECK(float(r.acmr) == Approx(st.acmr).epsilon(1e-6));
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

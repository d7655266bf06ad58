// The post-transform vertex cache (FIFO keyed by index) and primitive assembly counts.
#include "model/pipe/post_transform_cache.h"
#include "model/pipe/primitive_assembly.h"
#include "tests/test_seed.h"

#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <deque>
#include <random>
#include <vector>

using namespace vpsim;
using namespace vpsim::pipe;

namespace {
PostTransformCacheParams cache_of(uint32_t entries, uint32_t batch_reset = 0) {
    PostTransformCacheParams p;
    p.entries = entries;
    p.batch_reset = batch_reset;
    return p;
}
}  // namespace

TEST_CASE("The cache hits on a recently shaded index and misses on a new one", "[vcache]") {
    PostTransformCache c(cache_of(4));
    CHECK_FALSE(c.lookup(7));
    CHECK(c.lookup(7));
    CHECK_FALSE(c.lookup(8));
    CHECK(c.lookup(7));
    CHECK(c.lookups() == 4);
    CHECK(c.hits() == 2);
    CHECK(c.misses() == 2);
    CHECK(c.contents() == std::vector<uint32_t>{7, 8});
}

TEST_CASE("The cache evicts in FIFO order and a hit does not refresh an entry", "[vcache]") {
    PostTransformCache c(cache_of(3));
    for (uint32_t i : {1u, 2u, 3u}) CHECK_FALSE(c.lookup(i));
    CHECK(c.lookup(1));  // a hit: 1 stays the oldest (FIFO, not LRU)
    CHECK_FALSE(c.lookup(4));  // evicts 1
    CHECK(c.contents() == std::vector<uint32_t>{2, 3, 4});
    CHECK_FALSE(c.lookup(1));  // 1 was evicted despite its recent hit; evicts 2
    CHECK(c.contents() == std::vector<uint32_t>{3, 4, 1});
    CHECK(c.lookup(3));
    CHECK_FALSE(c.lookup(2));
    CHECK(c.misses() == 6);
    CHECK(c.hits() == 2);
}

TEST_CASE("A cache of 0 entries is off: every index is shaded", "[vcache]") {
    PostTransformCache c(cache_of(0));
    for (int k = 0; k < 3; ++k) CHECK_FALSE(c.lookup(5));
    CHECK(c.misses() == 3);
    CHECK(c.contents().empty());
}

TEST_CASE("batch_reset flushes the cache every N indices", "[vcache]") {
    PostTransformCache c(cache_of(8, 3));
    CHECK_FALSE(c.lookup(1));
    CHECK(c.lookup(1));
    CHECK(c.lookup(1));
    CHECK_FALSE(c.lookup(1));  // 4th index: a new batch, the cache was flushed
    CHECK(c.lookup(1));
    CHECK(c.lookup(1));
    CHECK_FALSE(c.lookup(1));
    CHECK(c.stats().get("flushes") == 2);
    // batch_reset 0 never flushes.
    PostTransformCache never(cache_of(8, 0));
    never.lookup(1);
    for (int k = 0; k < 100; ++k) CHECK(never.lookup(1));
    CHECK(never.stats().get("flushes") == 0);
}

TEST_CASE("The cache answers as a plain FIFO of its entries, at every size and with batch resets", "[vcache]") {
    // lookup compares whole blocks of 8 slots (its padding and unfilled slots hold copies of a held
    // entry): against a deque searched one entry at a time, sizes around the block edges, indices
    // from small ranges (many hits) and wide ones, flushes mid-way.
    std::mt19937_64 rng(test_seed("vcache FIFO"));
    for (uint32_t entries : {1u, 2u, 7u, 8u, 9u, 15u, 16u, 17u, 24u, 31u, 33u, 64u}) {
        for (uint32_t batch_reset : {0u, 5u, 100u}) {
            PostTransformCache c(cache_of(entries, batch_reset));
            std::deque<uint32_t> fifo;
            uint64_t since = 0;
            const uint32_t range = std::uniform_int_distribution<uint32_t>(1, 3 * entries + 2)(rng);
            for (int k = 0; k < 4000; ++k) {
                if (k % 1500 == 1499) {
                    c.flush();
                    fifo.clear();
                    since = 0;
                }
                const uint32_t x = rng() % 16 == 0 ? uint32_t(rng()) : uint32_t(rng() % range);
                if (batch_reset && since == batch_reset) fifo.clear(), since = 0;
                ++since;
                const bool hit = std::find(fifo.begin(), fifo.end(), x) != fifo.end();
                if (!hit) {
                    fifo.push_back(x);
                    if (fifo.size() > entries) fifo.pop_front();
                }
                INFO("entries " << entries << ", batch_reset " << batch_reset << ", lookup " << k << " of " << x);
                REQUIRE(c.lookup(x) == hit);
                REQUIRE(c.contents() == std::vector<uint32_t>(fifo.begin(), fifo.end()));
            }
        }
    }
}

TEST_CASE("MissCounter answers as the cache, at every size, with batch resets and flushes", "[vcache]") {
    // Its stamps against the cache's slots on the same random lookups (indices from small ranges,
    // many hits, and wide ones: up to its kMaxIndex in the first configuration, which grows its
    // stamps to the bound, up to 2^20 in the others, which need not zero 64 MiB each).
    std::mt19937_64 rng(test_seed("vcache MissCounter"));
    uint32_t wide = MissCounter::kMaxIndex;
    for (uint32_t entries : {0u, 1u, 2u, 8u, 9u, 16u, 24u, 33u}) {
        for (uint32_t batch_reset : {0u, 5u, 100u}) {
            PostTransformCache c(cache_of(entries, batch_reset));
            MissCounter m(cache_of(entries, batch_reset));
            const uint32_t range = std::uniform_int_distribution<uint32_t>(1, 3 * entries + 2)(rng);
            for (int k = 0; k < 4000; ++k) {
                if (k % 1500 == 1499) c.flush(), m.flush();
                const uint32_t x = rng() % 16 == 0 ? uint32_t(rng() % wide) : uint32_t(rng() % range);
                const bool counter = m.lookup(x), cache = c.lookup(x);
                if (counter != cache)  // (a message built only when it fails: 96,000 lookups)
                    FAIL("entries " << entries << ", batch_reset " << batch_reset << ", lookup " << k << " of " << x
                                    << ": MissCounter " << counter << ", the cache " << cache);
            }
            wide = 1u << 20;
        }
    }
}

TEST_CASE("MissCounter answers as the cache across the wrap of its miss ordinals", "[vcache]") {
    // Counting from just below the largest ordinal, the wrap comes mid-way: the held entries must
    // stay held, in order, and what was flushed or evicted must stay out.
    std::mt19937_64 rng(test_seed("vcache MissCounter wrap"));
    for (uint32_t entries : {1u, 7u, 24u}) {
        PostTransformCache c(cache_of(entries));
        MissCounter m(cache_of(entries), UINT32_MAX - 50);
        for (int k = 0; k < 400; ++k) {
            if (k == 30) c.flush(), m.flush();
            const uint32_t x = uint32_t(rng() % (2 * entries + 3));
            INFO("entries " << entries << ", lookup " << k << " of " << x);
            REQUIRE(m.lookup(x) == c.lookup(x));
        }
    }
}

TEST_CASE("MissCounter refuses an index it has no stamp for", "[vcache]") {
    MissCounter m(cache_of(24));
    CHECK_THROWS_WITH(m.lookup(MissCounter::kMaxIndex), Catch::Contains("is not below"));
}

TEST_CASE("The cache's statistics group is functional, with hit and miss rates", "[vcache]") {
    PostTransformCache c(cache_of(2));
    c.lookup(1);
    c.lookup(1);
    c.lookup(2);
    c.lookup(1);
    const auto j = c.stats().to_json(0);
    CHECK(j["cycles"].is_null());
    CHECK(j["counters"]["hits"]["value"] == 2);
    CHECK(j["rates"]["hit_rate"]["value"] == Approx(0.5));
}

TEST_CASE("ACMR and ATVR are shaded vertices per triangle and per unique vertex", "[vcache]") {
    CHECK(acmr(3, 1) == 3.0);
    CHECK(atvr(4, 4) == 1.0);
    CHECK(std::isnan(acmr(1, 0)));
    CHECK(std::isnan(atvr(1, 0)));
}

// A W x H grid of quads, (W+1) x (H+1) vertices, drawn as an indexed triangle list in row order.
TEST_CASE("A regular grid as an indexed list: ACMR 3.0 with the cache off", "[vcache]") {
    for (uint32_t w : {8u, 32u}) {
        const auto idx = grid_triangle_list(w, w);
        const VertexReuse r = measure_vertex_reuse(idx, PrimitiveType::TriangleList, cache_of(0));
        CHECK(r.primitives == 2ull * w * w);
        CHECK(r.unique == uint64_t(w + 1) * (w + 1));
        CHECK(r.shaded == r.indices);
        CHECK(r.acmr == 3.0);  // exactly: every reference shades a vertex
    }
}

TEST_CASE("A regular grid as an indexed list: ACMR with 24 entries (GeForce3)", "[vcache]") {
    // Measured with a 24-entry FIFO, quads in row order, triangles (a,b,c) (b,d,c):
    //   grid  8x8  (9 vertices a row):  ACMR 0.632812 = 81/128,  ATVR 1.000000
    //   grid 11x11 (12 vertices a row): ACMR 0.595041 = 144/242, ATVR 1.000000
    //   grid 12x12 (13 vertices a row): ACMR 1.006944,           ATVR 1.715976
    //   grid 32x32 (33 vertices a row): ACMR 1.031250 = 33/32,   ATVR 1.939394
    // Why: quad row 0 inserts rows 0 and 1 interleaved, 2(W+1) entries, so row 1 survives to
    // quad row 1 only when 2(W+1) <= 24 (W <= 11). Then every later quad row inserts only its
    // new row, each vertex is shaded once (ATVR 1) and ACMR = (W+1)(H+1) / 2WH, the mesh's
    // bound, which tends to 0.5. Otherwise the top row misses again and is reinserted, so
    // every quad row shades both its rows: ACMR = 2H(W+1) / 2WH = (W+1)/W, just above 1.
    // The accepted range [0.5, 1.05] is therefore "every vertex once" down to "every row twice"
    // for W >= 20; anything outside it means the FIFO or the assembly is wrong.
    const VertexReuse narrow = measure_vertex_reuse(grid_triangle_list(8, 8), PrimitiveType::TriangleList, cache_of(24));
    const VertexReuse limit = measure_vertex_reuse(grid_triangle_list(11, 11), PrimitiveType::TriangleList, cache_of(24));
    const VertexReuse past = measure_vertex_reuse(grid_triangle_list(12, 12), PrimitiveType::TriangleList, cache_of(24));
    const VertexReuse wide = measure_vertex_reuse(grid_triangle_list(32, 32), PrimitiveType::TriangleList, cache_of(24));
    INFO("8x8 ACMR " << narrow.acmr << ", 11x11 " << limit.acmr << ", 12x12 " << past.acmr << ", 32x32 " << wide.acmr);
    for (const VertexReuse* r : {&narrow, &limit, &past, &wide}) {
        CHECK(r->acmr >= 0.5);
        CHECK(r->acmr <= 1.05);
    }
    CHECK(narrow.acmr == Approx(81.0 / 128.0));
    CHECK(narrow.atvr == 1.0);
    CHECK(limit.atvr == 1.0);
    CHECK(past.atvr > 1.0);
    CHECK(wide.acmr == Approx(33.0 / 32.0));
    CHECK(wide.shaded == 32u * 2u * 33u);
    // The GeForce 1/2 size (16 entries) keeps the previous row only up to W = 7.
    const VertexReuse gf2 = measure_vertex_reuse(grid_triangle_list(8, 8), PrimitiveType::TriangleList, cache_of(16));
    CHECK(gf2.acmr == Approx(65.0 / 64.0));  // measured 1.015625
    CHECK(narrow.acmr < gf2.acmr);
}

TEST_CASE("A large cache shades each vertex of the grid once: ATVR 1", "[vcache]") {
    const VertexReuse r = measure_vertex_reuse(grid_triangle_list(32, 32), PrimitiveType::TriangleList, cache_of(4096));
    CHECK(r.atvr == 1.0);
    CHECK(r.shaded == 33u * 33u);
    // ACMR = (W+1)(H+1) / 2WH: 1089 / 2048, approaching 0.5 for a large mesh.
    CHECK(r.acmr == Approx(1089.0 / 2048.0));
}

TEST_CASE("Vertex references for P primitives of every type", "[vcache]") {
    CHECK(vertex_count(PrimitiveType::PointList, 5) == 5);
    CHECK(vertex_count(PrimitiveType::LineList, 5) == 10);
    CHECK(vertex_count(PrimitiveType::LineStrip, 5) == 6);
    CHECK(vertex_count(PrimitiveType::TriangleList, 5) == 15);
    CHECK(vertex_count(PrimitiveType::TriangleStrip, 5) == 7);
    CHECK(vertex_count(PrimitiveType::TriangleFan, 5) == 7);
    for (PrimitiveType t : kAllPrimitiveTypes) {
        CHECK(vertex_count(t, 0) == 0);
        // primitive_count inverts vertex_count.
        for (uint64_t p : {1u, 2u, 7u, 100u}) CHECK(primitive_count(t, vertex_count(t, p)) == p);
        CHECK(parse_primitive_type(primitive_type_name(t)) == t);
    }
    CHECK_FALSE(parse_primitive_type("quadlist").has_value());
}

TEST_CASE("Primitives made by N references of every type, partial primitives dropped", "[vcache]") {
    CHECK(primitive_count(PrimitiveType::PointList, 7) == 7);
    CHECK(primitive_count(PrimitiveType::LineList, 7) == 3);
    CHECK(primitive_count(PrimitiveType::LineStrip, 7) == 6);
    CHECK(primitive_count(PrimitiveType::LineStrip, 1) == 0);
    CHECK(primitive_count(PrimitiveType::TriangleList, 7) == 2);
    CHECK(primitive_count(PrimitiveType::TriangleStrip, 7) == 5);
    CHECK(primitive_count(PrimitiveType::TriangleStrip, 2) == 0);
    CHECK(primitive_count(PrimitiveType::TriangleFan, 7) == 5);
    CHECK(primitive_count(PrimitiveType::TriangleFan, 0) == 0);
}

TEST_CASE("The assembler counts primitives as vertices arrive", "[vcache]") {
    PrimitiveAssembler list(PrimitiveType::TriangleList);
    std::vector<bool> done;
    for (int i = 0; i < 7; ++i) done.push_back(list.push());
    CHECK(done == std::vector<bool>{false, false, true, false, false, true, false});
    CHECK(list.primitives() == 2);

    PrimitiveAssembler strip(PrimitiveType::TriangleStrip);
    std::vector<bool> flipped;
    for (int i = 0; i < 6; ++i)
        if (strip.push()) flipped.push_back(strip.last_flipped());
    CHECK(strip.primitives() == 4);
    CHECK(flipped == std::vector<bool>{false, true, false, true});  // strips alternate winding

    for (PrimitiveType t : kAllPrimitiveTypes) {
        PrimitiveAssembler a(t);
        for (int i = 0; i < 11; ++i) a.push();
        CHECK(a.primitives() == primitive_count(t, 11));
        CHECK(a.vertices() == 11);
        a.reset();
        CHECK(a.primitives() == 0);
    }
}

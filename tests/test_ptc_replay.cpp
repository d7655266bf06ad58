// bench metamorphic's post-transform cache replays (model/bench/ptc_replay.h): Belady's anomaly on
// a crafted index sequence, and a rise accepted as the anomaly only when the FIFO replay
// reproduces the model's counts and an LRU of the same sizes does not rise.
#include "model/bench/ptc_replay.h"
#include "model/pipe/post_transform_cache.h"
#include "test_seed.h"

#include <catch2/catch.hpp>

#include <random>

using namespace vpsim;

namespace {

// 20 triangles over 16 vertices (tests/belady/belady_fifo.json draws it 8 times), found by a
// search for a sequence a 12-entry FIFO misses more often than an 8-entry one.
const std::vector<uint32_t> kBelady = {15, 5,  14, 13, 9,  0,  15, 2,  8,  0,  10, 2,  11, 12, 7,
                                       0,  4,  1,  7,  10, 15, 10, 9,  14, 14, 5,  4,  6,  14, 11,
                                       8,  9,  4,  4,  8,  3,  5,  9,  12, 15, 13, 12, 8,  11, 4,
                                       15, 12, 8,  10, 7,  2,  4,  15, 1,  0,  12, 9,  14, 7,  13};

std::vector<bench::DrawRefs> draws_of(const std::vector<uint32_t>& refs, int n = 1) {
    bench::DrawRefs d;
    d.indexed = true;
    d.primitives = refs.size() / 3;
    d.refs = refs;
    return std::vector<bench::DrawRefs>(size_t(n), d);
}

// The model's own cache (model/pipe) on the references: vertices shaded.
uint64_t model_cache_misses(const std::vector<uint32_t>& refs, uint32_t entries) {
    pipe::PostTransformCacheParams p;
    p.entries = entries;
    pipe::PostTransformCache c(p);
    for (uint32_t v : refs) c.lookup(v);
    return c.misses();
}

}  // namespace

TEST_CASE("ptc replay: the crafted sequence shows Belady's anomaly on the model's FIFO cache, not on an LRU") {
    const auto d = draws_of(kBelady);
    CHECK(bench::replay_shaded(d, 8, 0, false) == 33);
    CHECK(bench::replay_shaded(d, 12, 0, false) == 34);  // more entries, one more vertex shaded
    CHECK(bench::replay_shaded(d, 8, 0, true) == 37);
    CHECK(bench::replay_shaded(d, 12, 0, true) == 27);  // a stack algorithm: no anomaly
    // The replay is the model's cache: model/pipe's PostTransformCache gives the same counts.
    CHECK(model_cache_misses(kBelady, 8) == 33);
    CHECK(model_cache_misses(kBelady, 12) == 34);
    // No cache: every reference shaded; a flush every 30 look-ups ends the anomaly here.
    CHECK(bench::replay_shaded(d, 0, 0, false) == kBelady.size());
    CHECK(bench::replay_shaded(d, 12, 30, false) <= bench::replay_shaded(d, 8, 30, false));
}

TEST_CASE("ptc replay: a rise is accepted as Belady's anomaly only when the FIFO replay reproduces it") {
    const auto d = draws_of(kBelady, 8);  // as the workload draws it
    const bench::BeladyVerdict yes = bench::belady_anomaly(d, 8, 12, 0, 264, 272);
    CHECK(yes.shown);
    CHECK(yes.fifo_from == 264);
    CHECK(yes.fifo_to == 272);
    CHECK(yes.lru_to < yes.lru_from);
    CHECK(yes.note == "Belady's anomaly: a FIFO replay shades 264 -> 272, an LRU 296 -> 216");
    // A model whose counts differ from the FIFO replay (a cache that is not this FIFO, or
    // references that are not the draws'): the same rise is not excused.
    const bench::BeladyVerdict off = bench::belady_anomaly(d, 8, 12, 0, 264, 273);
    CHECK_FALSE(off.shown);
    CHECK_THAT(off.note, Catch::StartsWith("not Belady's anomaly: FIFO replay 264 -> 272 (model 264 -> 273)"));
    CHECK_FALSE(bench::belady_anomaly(d, 8, 12, 0, 263, 272).shown);
    // Sizes at which the FIFO does not rise (8 -> 16: a FIFO twice as large never misses more):
    // a rise the model reports there is no anomaly whatever its counts.
    const uint64_t f8 = bench::replay_shaded(d, 8, 0, false), f16 = bench::replay_shaded(d, 16, 0, false);
    REQUIRE(f16 <= f8);
    CHECK_FALSE(bench::belady_anomaly(d, 8, 16, 0, f8, f8 + 1).shown);
    CHECK_FALSE(bench::belady_anomaly(d, 8, 16, 0, f8, f16).shown);
}

TEST_CASE("ptc replay: an LRU never shades more with more entries (why its rise is never excused)") {
    const uint64_t seed = test_seed("ptc replay lru");
    std::mt19937_64 rng(seed);
    for (int t = 0; t < 300; ++t) {
        std::vector<uint32_t> refs(size_t(30 + rng() % 90));
        const uint32_t vertices = 4 + uint32_t(rng() % 24);
        for (auto& r : refs) r = uint32_t(rng() % vertices);
        const auto d = draws_of(refs);
        const uint32_t reset = rng() % 3 == 0 ? uint32_t(6 + rng() % 40) : 0;
        uint64_t prev = bench::replay_shaded(d, 1, reset, true);
        for (uint32_t k = 2; k <= 32; ++k) {
            const uint64_t now = bench::replay_shaded(d, k, reset, true);
            INFO("seed " << seed << ", case " << t << ", entries " << k << ", batch_reset " << reset);
            REQUIRE(now <= prev);
            prev = now;
        }
        // And the FIFO replay equals the model's cache on the same references.
        const uint32_t e = 1 + uint32_t(rng() % 24);
        INFO("seed " << seed << ", case " << t << ", entries " << e);
        REQUIRE(bench::replay_shaded(d, e, 0, false) == model_cache_misses(refs, e));
    }
}

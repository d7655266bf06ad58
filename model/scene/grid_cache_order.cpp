#include "model/scene/grid_cache_order.h"

#include <cstddef>
#include <vector>

namespace vpsim::scene {

namespace {

// meshoptimizer 0.18's vertex score table (its kVertexScoreTable, the Forsyth-style score tuned
// for a 16-entry cache): by cache position + 1 (0: not in the cache) and by live triangles
// (clamped to 8). The same values give the same float sums, so the same choices.
constexpr unsigned kCacheSize = 16, kValenceMax = 8;
constexpr float kScoreCache[1 + kCacheSize] = {0.f,    0.779f, 0.791f, 0.789f, 0.981f, 0.843f,
                                               0.726f, 0.847f, 0.882f, 0.867f, 0.799f, 0.642f,
                                               0.613f, 0.600f, 0.568f, 0.372f, 0.234f};
constexpr float kScoreLive[1 + kValenceMax] = {0.f, 0.995f, 0.713f, 0.450f, 0.404f, 0.059f, 0.005f, 0.147f, 0.006f};

float vertex_score(int cache_position, unsigned live) {
    return kScoreCache[1 + cache_position] + kScoreLive[live < kValenceMax ? live : kValenceMax];
}

class GridOrder {
public:
    GridOrder(uint32_t columns, uint32_t rows)
        : cols_(columns), rows_(rows), w_(columns + 1), nv_(size_t(columns + 1) * (rows + 1)),
          nf_(size_t(2) * columns * rows), adj_(nv_), vscore_(nv_), tscore_(nf_), emitted_((nf_ + 63) / 64) {
        // Slot s of vertex v is triangle tri_base(v) + off_[s] (see tri_base()).
        const size_t c2 = size_t(2) * cols_;
        const size_t off[6] = {0 - c2 - 1, 0 - c2, 0 - c2 + 1, 0 - size_t(2), 0 - size_t(1), 0};
        for (int s = 0; s < 6; ++s) off_[s] = off[s];
    }

    void run(uint8_t* out, uint32_t index_size) {
        for (uint32_t j = 0; j <= rows_; ++j)
            for (uint32_t i = 0; i <= cols_; ++i) {
                // The triangles of vertex (i, j) in increasing order, as slots 0..5 (see tri_base()).
                uint32_t list = 0, n = 0;
                auto add = [&](uint32_t slot) { list |= slot << (3 + 3 * n++); };
                if (i >= 1 && j >= 1) add(0);
                if (i < cols_ && j >= 1) add(1), add(2);
                if (i >= 1 && j < rows_) add(3), add(4);
                if (i < cols_ && j < rows_) add(5);
                const size_t v = size_t(j) * w_ + i;
                adj_[v] = list | n;
                vscore_[v] = vertex_score(-1, n);
            }
        for (size_t t = 0; t < nf_; ++t) {
            uint32_t x[3];
            corners(t, x);
            tscore_[t] = vscore_[x[0]] + vscore_[x[1]] + vscore_[x[2]];
        }

        uint32_t cache_holder[2 * (kCacheSize + 3)];
        uint32_t* cache = cache_holder;
        uint32_t* cache_new = cache_holder + kCacheSize + 3;
        size_t cache_count = 0;
        size_t current = 0, input_cursor = 1;
        const auto put = [&](uint32_t x) {
            for (uint32_t b = 0; b < index_size; ++b) *out++ = uint8_t(x >> (8 * b));
        };
        while (current != kNone) {
            uint32_t x[3];
            corners(current, x);
            put(x[0]), put(x[1]), put(x[2]);
            emitted_[current / 64] |= uint64_t(1) << (current % 64);
            tscore_[current] = 0;

            size_t cache_write = 0;
            for (uint32_t k : x) cache_new[cache_write++] = k;
            for (size_t i = 0; i < cache_count; ++i) {
                const uint32_t v = cache[i];
                if (v != x[0] && v != x[1] && v != x[2]) cache_new[cache_write++] = v;
            }
            std::swap(cache, cache_new);
            cache_count = cache_write > kCacheSize ? kCacheSize : cache_write;

            // The emitted triangle leaves its vertices' lists: the last entry takes its place.
            for (uint32_t v : x) {
                uint32_t& a = adj_[v];
                const uint32_t n = a & 7;
                const size_t base = tri_base(v);
                for (uint32_t k = 0; k < n; ++k)
                    if (base + off_[entry(a, k)] == current) {
                        const uint32_t last = entry(a, n - 1);
                        a &= ~(7u << (3 + 3 * k));
                        a |= last << (3 + 3 * k);
                        a &= ~(7u << (3 + 3 * (n - 1)));
                        a = (a & ~7u) | (n - 1);
                        break;
                    }
            }

            size_t best = kNone;
            float best_score = 0;
            for (size_t i = 0; i < cache_write; ++i) {
                const uint32_t v = cache[i];
                const int position = i >= kCacheSize ? -1 : int(i);
                const uint32_t a = adj_[v], n = a & 7;
                const float score = vertex_score(position, n);
                const float diff = score - vscore_[v];
                vscore_[v] = score;
                const size_t base = tri_base(v);
                for (uint32_t k = 0; k < n; ++k) {
                    const size_t t = base + off_[entry(a, k)];
                    const float ts = tscore_[t] + diff;
                    if (best_score < ts) best = t, best_score = ts;
                    tscore_[t] = ts;
                }
            }
            current = best;
            if (current == kNone) {
                while (input_cursor < nf_ && (emitted_[input_cursor / 64] >> (input_cursor % 64) & 1)) ++input_cursor;
                current = input_cursor < nf_ ? input_cursor : kNone;
            }
        }
    }

private:
    static constexpr size_t kNone = ~size_t(0);

    static uint32_t entry(uint32_t list, uint32_t k) { return (list >> (3 + 3 * k)) & 7; }

    // Triangle `slot` of vertex v = (i, j): 0 the second of quad (i-1, j-1), 1 and 2 both of quad
    // (i, j-1), 3 and 4 both of quad (i-1, j), 5 the first of quad (i, j). With b = j * cols + i =
    // v - j (the quad (i, j)), these are 2b - 2 cols - 1, 2b - 2 cols, 2b - 2 cols + 1, 2b - 2, 2b - 1
    // and 2b: tri_base(v) + off_[slot], in unsigned arithmetic. One division per vertex, not per
    // triangle: the loops above look up a vertex's triangles together. A vertex index fits 32 bits
    // (the indices are at most 4 bytes), so the division is a 32-bit one.
    size_t tri_base(uint32_t v) const { return 2 * size_t(v - v / w_); }

    // The three indices of triangle t, in the list's order.
    void corners(size_t t, uint32_t x[3]) const {
        const size_t q = t / 2;
        const uint32_t a = uint32_t((q / cols_) * w_ + q % cols_);
        if (t % 2 == 0) x[0] = a, x[1] = a + w_, x[2] = a + 1;
        else x[0] = a + 1, x[1] = a + w_, x[2] = a + w_ + 1;
    }

    uint32_t cols_, rows_, w_;
    size_t nv_, nf_;
    size_t off_[6];  // tri_base's offset of each slot
    std::vector<uint32_t> adj_;  // per vertex: bits 0..2 the count, then 3 bits per entry (a slot)
    std::vector<float> vscore_, tscore_;
    std::vector<uint64_t> emitted_;
};

}  // namespace

void grid_cache_order(uint32_t columns, uint32_t rows, uint8_t* out, uint32_t index_size) {
    if (columns == 0 || rows == 0) return;
    GridOrder(columns, rows).run(out, index_size);
}

}  // namespace vpsim::scene

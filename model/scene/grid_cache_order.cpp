#include "model/scene/grid_cache_order.h"

#include <cstddef>
#include <cstring>
#include <iterator>
#include <algorithm>
#include <utility>
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

// A grid vertex has at most 6 triangles; after an emitted triangle's 3 vertices go to the front,
// the cache list holds up to kCacheSize + 3 vertices, the last 3 of them already evicted.
constexpr unsigned kMaxLive = 6, kListMax = kCacheSize + 3;

// A little-endian index of Size bytes: one store on a little-endian host, byte by byte on others.
template <uint32_t Size>
uint8_t* put(uint8_t* out, uint32_t x) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
    if (Size == 4) std::memcpy(out, &x, 4);
    else {
        const uint16_t x16 = uint16_t(x);
        std::memcpy(out, &x16, 2);
    }
#else
    for (uint32_t b = 0; b < Size; ++b) out[b] = uint8_t(x >> (8 * b));
#endif
    return out + Size;
}

class GridOrder {
public:
    GridOrder(uint32_t columns, uint32_t rows)
        : cols_(columns), rows_(rows), w_(columns + 1), nv_(size_t(columns + 1) * (rows + 1)),
          nf_(size_t(2) * columns * rows), adj_(nv_), vscore_(nv_), tscore_(nf_), emitted_((nf_ + 63) / 64) {
        // Slot s of a vertex is triangle base + off_[s + 1] (see order()), in uint32 arithmetic:
        // a triangle index fits 32 bits (at most 2 x 16M triangles).
        const uint32_t c2 = 2 * cols_;
        const uint32_t off[6] = {0 - c2 - 1, 0 - c2, 0 - c2 + 1, 0 - 2u, 0 - 1u, 0};
        for (int s = 0; s < 6; ++s) off_[s + 1] = off[s];
        // The score of a vertex at place i of the cache list with n live triangles: one look-up
        // instead of two and an add in the hot loop. Computed by vertex_score itself, so each
        // entry is the very float that meshoptimizer's sum gives.
        for (unsigned i = 0; i < kListMax; ++i)
            for (unsigned n = 0; n <= kMaxLive; ++n) score_[i][n] = vertex_score(i < kCacheSize ? int(i) : -1, n);
    }

    void run(uint8_t* out, uint32_t index_size) {
        init();
        if (index_size == 2) order<2>(out);
        else order<4>(out);
    }

private:
    static constexpr uint32_t kNone = ~uint32_t(0);

    // A vertex's packed adjacency list: bits 0..2 the count n of its live triangles, then 3 bits
    // per triangle, slot + 1 (so the entries end at the first 0). Triangle slots of vertex (i, j):
    // 0 the second of quad (i-1, j-1), 1 and 2 both of quad (i, j-1), 3 and 4 both of quad
    // (i-1, j), 5 the first of quad (i, j). The entries are in meshoptimizer's order (its list is
    // the triangles in increasing order, and an emitted triangle's entry takes the last one):
    // the same order decides the same ties below. Bits kLocShift.. of adj_ hold where the vertex
    // was last put in buf_ (order()).
    static constexpr uint32_t kLocShift = 21, kListBits = (1u << kLocShift) - 1;
    static_assert(3 + 3 * kMaxLive <= kLocShift, "the packed list fits below the place");

    // `list` without the entry of `slot` (which it has): the last entry takes its place, as in
    // meshoptimizer. The entry is found without a loop: XOR with slot + 1 in every field zeroes
    // that field alone (past the end the fields become slot + 1), and the lowest zero field is
    // the lowest bit of (y - ones) & ~y & highs (the "has a zero byte" test, 3-bit fields).
    static uint32_t without(uint32_t list, uint32_t slot) {
        constexpr uint32_t kOnes = 0111111, kHighs = kOnes << 2;  // octal: each of 6 fields
        const uint32_t n = list & 7, rest = list >> 3, y = rest ^ (slot + 1) * kOnes;
        const uint32_t at = uint32_t(__builtin_ctz((y - kOnes) & ~y & kHighs)) - 2;  // 3 k
        const uint32_t last_at = 3 * (n - 1), last = rest >> last_at & 7;
        const uint32_t r = ((rest & ~(7u << at)) | last << at) & ((1u << last_at) - 1);
        return r << 3 | (n - 1);
    }

    // A vertex in the cache list, with its packed list (a copy of adj_'s, which changes only
    // when the vertex is a corner of the emitted triangle, and then it is put in front anew) and
    // that list's triangles, worked out when it is put in front: the score loop visits them
    // every step while the vertex stays in the list.
    struct Entry {
        uint32_t v, list;
        uint32_t tri[kMaxLive];
    };

    // Every vertex's list, its score out of the cache, and every triangle's score (the sum of
    // its corners' scores, in corner order as meshoptimizer adds them).
    void init() {
        for (uint32_t j = 0; j <= rows_; ++j)
            for (uint32_t i = 0; i <= cols_; ++i) {
                // The triangles of vertex (i, j) in increasing order.
                uint32_t list = 0, n = 0;
                auto add = [&](uint32_t slot) { list |= (slot + 1) << (3 + 3 * n++); };
                if (i >= 1 && j >= 1) add(0);
                if (i < cols_ && j >= 1) add(1), add(2);
                if (i >= 1 && j < rows_) add(3), add(4);
                if (i < cols_ && j < rows_) add(5);
                const size_t v = size_t(j) * w_ + i;
                adj_[v] = list | n;
                vscore_[v] = score_[kListMax - 1][n];
            }
        // Quad by quad: (a, c, b) and (b, c, d), no division per triangle.
        size_t t = 0;
        for (uint32_t j = 0; j < rows_; ++j)
            for (uint32_t i = 0; i < cols_; ++i, t += 2) {
                const size_t a = size_t(j) * w_ + i, b = a + 1, c = a + w_, d = c + 1;
                tscore_[t] = vscore_[a] + vscore_[c] + vscore_[b];
                tscore_[t + 1] = vscore_[b] + vscore_[c] + vscore_[d];
            }
    }

    // The cache list lives in buf_[head, head + count), most recent first. meshoptimizer rebuilds
    // it each step (the new triangle's corners, then the old list without them), comparing every
    // entry with the corners; here each vertex's adj_ knows where the vertex sits in buf_
    // (kLocShift), so the corners are found with three look-ups, only the entries before the
    // last of them move (one place right per corner passed), and the corners go in front: the
    // list grows down through buf_ and is moved back to its end when it reaches the start. A
    // place is believed only if it is inside the list and holds the vertex: a vertex is in the
    // list at most once, and a stale place (the vertex left the list) fails one or the other.
    static constexpr uint32_t kBuf = 512;  // 16 KB: moved back once per ~165 steps
    static_assert(kBuf <= (1u << (32 - kLocShift)), "a place in buf_ fits adj_'s spare bits");


    // meshopt_optimizeVertexCache's loop, step for step: emit the current triangle, put its
    // corners at the front of the cache, take it out of its corners' lists, update the scores of
    // the cache's vertices and of their live triangles, and take the best of those (the first
    // to exceed all before it, intermediate sums included, as meshoptimizer compares them) or,
    // at a dead end, the first triangle not emitted yet.
    template <uint32_t IndexSize>
    void order(uint8_t* out) {
        // Locals, not members: the stores through these arrays could otherwise (as far as the
        // compiler knows) change a member, which would be loaded again after each of them.
        Entry* const buf = buf_;
        uint32_t* const adj = adj_.data();
        float* const vscore = vscore_.data();
        float* const tscore = tscore_.data();
        uint64_t* const emitted = emitted_.data();
        const uint32_t cols = cols_, w = w_;
        const size_t nf = nf_;
        uint32_t off[8];
        float score[kListMax][8];
        std::copy(std::begin(off_), std::end(off_), off);
        std::copy(&score_[0][0], &score_[0][0] + kListMax * 8, &score[0][0]);
        const auto place = [&](uint32_t at, const Entry& e) {
            buf[at] = e;
            adj[e.v] = e.list | at << kLocShift;
        };
        for (uint32_t i = 0; i < kBuf; ++i) buf[i] = {kNone, 0, {}};  // no vertex: a stale place never matches
        uint32_t head = kBuf, count = 0;
        // Bit i: the vertex at place i of the list has live triangles. Those without any keep
        // their place in the list but have nothing to update: the score loop skips them
        // without looking at them.
        uint32_t live = 0;
        size_t current = 0, input_cursor = 1;
        while (current != kNone) {
            // The corners in the list's order, with their bases and the slot the triangle has
            // in each corner's list: (a, c, b) of quad q = (i, j) are its slots 5, 1, 3, and
            // (b, c, d) are slots 4, 2, 0.
            const uint32_t q = uint32_t(current / 2), a = q + q / cols;  // a = j (cols + 1) + i
            // Each corner's triangle base 2 (j cols + i) for corner (i, j): its slots 0..5 are
            // the triangles base - 2 cols - 1, base - 2 cols, base - 2 cols + 1, base - 2,
            // base - 1 and base (off).
            const uint32_t c2 = 2 * cols, b2 = 2 * q;
            Entry x[3];
            uint32_t slot[3], base[3];
            if (current % 2 == 0) {
                x[0].v = a, x[1].v = a + w, x[2].v = a + 1;
                base[0] = b2, base[1] = b2 + c2, base[2] = b2 + 2;
                slot[0] = 5, slot[1] = 1, slot[2] = 3;
            } else {
                x[0].v = a + 1, x[1].v = a + w, x[2].v = a + w + 1;
                base[0] = b2 + 2, base[1] = b2 + c2, base[2] = b2 + c2 + 2;
                slot[0] = 4, slot[1] = 2, slot[2] = 0;
            }
            out = put<IndexSize>(out, x[0].v);
            out = put<IndexSize>(out, x[1].v);
            out = put<IndexSize>(out, x[2].v);
            emitted[current / 64] |= uint64_t(1) << (current % 64);
            tscore[current] = 0;

            // The emitted triangle leaves its corners' lists (the last entry takes its place),
            // and the corners' places in the old cache list are marked in `holes`.
            uint32_t holes = 0, corners_in_list = 0, corners_live = 0;
            const auto corner = [&](Entry& e, uint32_t slot, uint32_t base, uint32_t bit) {
                const uint32_t l = adj[e.v], at = l >> kLocShift, position = at - head;
                if (position < count && buf[at].v == e.v) holes |= 1u << position, ++corners_in_list;
                e.list = without(l & kListBits, slot);
                uint32_t k = 0;
                for (uint32_t rest = e.list >> 3; rest; rest >>= 3) e.tri[k++] = base + off[rest & 7];
                corners_live |= uint32_t((e.list & 7) != 0) << bit;
            };
            corner(x[0], slot[0], base[0], 0), corner(x[1], slot[1], base[1], 1), corner(x[2], slot[2], base[2], 2);
            // The new list: the corners, then the old list without them. The entries before the
            // last hole close up towards it; those after it stay where they are.
            uint32_t front = head;  // the old list's first kept entry, after closing up
            if (holes) {
                const uint32_t last_hole = 31 - uint32_t(__builtin_clz(holes));
                uint32_t to = head + last_hole;
                for (uint32_t i = last_hole; i-- > 0;)
                    if (!(holes >> i & 1)) place(to--, buf[head + i]);
                front = to + 1;
                // The same in `live`: each hole's bit goes, the bits above it move down one.
                for (uint32_t h = holes; h;) {
                    const uint32_t p = 31 - uint32_t(__builtin_clz(h)), below = (1u << p) - 1;
                    live = (live & below) | (live >> 1 & ~below);
                    h &= below;
                }
            }
            live = live << 3 | corners_live;
            const uint32_t cache_write = count - corners_in_list + 3;
            head = front - 3;
            place(head, x[0]), place(head + 1, x[1]), place(head + 2, x[2]);

            size_t best = kNone;
            float best_score = 0;
            // The list's vertices with live triangles, in list order (a vertex without any is
            // left alone: its score is never read again, its count cannot grow).
            const Entry* const list = buf + head;
            for (uint32_t m = live; m; m &= m - 1) {
                const uint32_t i = uint32_t(__builtin_ctz(m));
                const Entry& e = list[i];
                const float s = score[i][e.list & 7];
                const float diff = s - vscore[e.v];
                vscore[e.v] = s;
                // Each triangle's new sum, and the highest of them: the order does not matter
                // for either, so the visits go from the last entry down, unrolled.
                float top = best_score;
                const auto visit = [&](uint32_t k) {
                    float& ts = tscore[e.tri[k]];
                    ts += diff;
                    top = ts < top ? top : ts;
                };
                switch (e.list & 7) {
                case 6: visit(5); [[fallthrough]];
                case 5: visit(4); [[fallthrough]];
                case 4: visit(3); [[fallthrough]];
                case 3: visit(2); [[fallthrough]];
                case 2: visit(1); [[fallthrough]];
                default: visit(0);
                }
                // meshoptimizer compares each sum with the best so far as it goes: of this
                // vertex's triangles, the last it takes is the first whose sum is their highest,
                // if that beats the best before. Found again here, not tracked per triangle.
                if (best_score < top) {
                    for (uint32_t k = 0;; ++k) {
                        const uint32_t t = e.tri[k];
                        if (tscore[t] == top) {
                            best = t;
                            break;
                        }
                    }
                    best_score = top;
                }
            }
            count = cache_write > kCacheSize ? kCacheSize : cache_write;
            live &= (1u << kCacheSize) - 1;
            // Room for the next step's three corners in front: move the list to buf_'s end.
            if (head < 3) {
                for (uint32_t i = count; i-- > 0;) place(kBuf - count + i, buf[head + i]);
                head = kBuf - count;
            }

            current = best;
            if (current == kNone) {
                while (input_cursor < nf && (emitted[input_cursor / 64] >> (input_cursor % 64) & 1)) ++input_cursor;
                current = input_cursor < nf ? input_cursor : kNone;
            }
        }
    }

    uint32_t cols_, rows_, w_;
    size_t nv_, nf_;
    uint32_t off_[8] = {};                    // the triangle of each slot + 1, from its vertex's base
    float score_[kListMax][8];          // vertex_score by place in the cache list and live count
    std::vector<uint32_t> adj_;              // per vertex: the packed list and the place in buf_
    std::vector<float> vscore_, tscore_;
    std::vector<uint64_t> emitted_;
    Entry buf_[kBuf];                        // the cache list's room (order())
};

}  // namespace

void grid_cache_order(uint32_t columns, uint32_t rows, uint8_t* out, uint32_t index_size) {
    if (columns == 0 || rows == 0) return;
    GridOrder(columns, rows).run(out, index_size);
}

}  // namespace vpsim::scene

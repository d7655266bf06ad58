// Replays of the post-transform cache on a run's index references (bench metamorphic,
// docs/calibration.md "Metamorphic properties"): a FIFO of N entries (the model's cache) and an
// LRU of N entries (a stack algorithm: more entries never miss more). A larger FIFO cache that
// shades more vertices is Belady's anomaly only when the FIFO replay shows the same counts as the
// model and the LRU replay does not rise.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::bench {

// A draw's references as the index fetch reads them.
struct DrawRefs {
    bool indexed = false;
    uint64_t primitives = 0;
    std::vector<uint32_t> refs;
};

// Vertices shaded by a FIFO (lru = false) or an LRU of `entries` over the draws, flushed at every
// draw and every `batch_reset` look-ups, as the post-transform cache does (docs/run.md).
uint64_t replay_shaded(const std::vector<DrawRefs>& draws, uint32_t entries, uint32_t batch_reset, bool lru);

struct BeladyVerdict {
    bool shown = false;  // the rise is Belady's anomaly of a FIFO cache
    uint64_t fifo_from = 0, fifo_to = 0, lru_from = 0, lru_to = 0;
    std::string note;    // what the replays showed, either way
};

// The model shaded `model_from` vertices with `from` entries and `model_to` with `to`
// (to > from, model_to > model_from): shown when a FIFO replay gives exactly those counts and
// rises, and an LRU of the same sizes does not rise.
BeladyVerdict belady_anomaly(const std::vector<DrawRefs>& draws, uint32_t from, uint32_t to, uint32_t batch_reset,
                             uint64_t model_from, uint64_t model_to);

}  // namespace vpsim::bench

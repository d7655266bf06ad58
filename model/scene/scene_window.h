// A scene's window (`vpsim run --draws N`, `vpsim why --budget R`, docs/why.md): the scene up to
// its N-th draw, and the number of draws whose references fit a budget, so an analysis that runs
// a scene many times can run a representative beginning of it at a bounded cost.
#pragma once

#include "model/scene/scene.h"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace vpsim::scene {

// A draw command and the references it sends down the pipeline: its primitive count's vertices,
// or for an indexed draw without one, the bound index buffer's indices from its start index.
// Patches: none (their generated vertices depend on the tessellation).
struct DrawSize {
    size_t command = 0;
    std::optional<uint64_t> references;
};

bool is_draw(const CommandBody& c);
std::vector<DrawSize> draw_sizes(const Scene& s);

// The number of draws, from the first, whose references total at most `budget` (at least one;
// a patch counts as none); 0: every draw. Never more than the scene's draws.
uint64_t draws_within(const std::vector<DrawSize>& draws, uint64_t budget);

// Drops every command after the `n`-th draw (n >= 1; a scene with fewer draws is kept whole).
void keep_draws(Scene& s, uint64_t n);

}  // namespace vpsim::scene

#include "model/scene/scene_window.h"

#include "model/pipe/primitive_assembly.h"

namespace vpsim::scene {

bool is_draw(const CommandBody& c) {
    return std::holds_alternative<DrawPrimitive>(c) || std::holds_alternative<DrawIndexedPrimitive>(c) ||
           std::holds_alternative<DrawRectPatch>(c) || std::holds_alternative<DrawTriPatch>(c);
}

std::vector<DrawSize> draw_sizes(const Scene& s) {
    std::vector<DrawSize> out;
    const Buffer* indices = nullptr;  // the bound index buffer
    for (size_t i = 0; i < s.commands.size(); ++i) {
        const CommandBody& c = s.commands[i].body;
        if (const auto* si = std::get_if<SetIndices>(&c)) {
            const auto it = si->buffer ? s.buffers.find(*si->buffer) : s.buffers.end();
            indices = it == s.buffers.end() ? nullptr : &it->second;
        }
        if (!is_draw(c)) continue;
        DrawSize d;
        d.command = i;
        if (const auto* dp = std::get_if<DrawPrimitive>(&c)) {
            d.references = pipe::vertex_count(dp->type, dp->primitive_count);
        } else if (const auto* di = std::get_if<DrawIndexedPrimitive>(&c)) {
            if (di->primitive_count)
                d.references = pipe::vertex_count(di->type, *di->primitive_count);
            else if (indices && indices->index_count() > di->start_index)
                d.references = indices->index_count() - di->start_index;
        }
        out.push_back(d);
    }
    return out;
}

uint64_t draws_within(const std::vector<DrawSize>& draws, uint64_t budget) {
    if (budget == 0) return draws.size();
    uint64_t n = 0, refs = 0;
    for (const DrawSize& d : draws) {
        refs += d.references.value_or(0);
        if (n > 0 && refs > budget) break;
        ++n;
    }
    return n;
}

void keep_draws(Scene& s, uint64_t n) {
    uint64_t seen = 0;
    for (size_t i = 0; i < s.commands.size(); ++i)
        if (is_draw(s.commands[i].body) && ++seen == n) {
            s.commands.resize(i + 1);
            return;
        }
}

}  // namespace vpsim::scene

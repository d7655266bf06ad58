// The vertex fetch as the fetch unit's pins carry it (model/vs/vs_fetch_unit.h).
#include "model/vs/vs_fetch_unit.h"

#include "model/decl/decl_tokens.h"
#include "model/vs/vs_fetch.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

namespace vpsim::vs {

using decl::EventKind;

std::vector<uint32_t> fetch_unit_layout(const decl::Declaration& d, uint32_t max_elems) {
    if (!d.valid) throw std::invalid_argument("the declaration is not valid (it has no layout)");
    // The last writer of each register: an element (its event number) or the tessellator (-2).
    std::array<int, 32> last{};
    last.fill(-1);
    for (size_t i = 0; i < d.events.size(); ++i) {
        const auto& e = d.events[i];
        if (e.reg >= 32) continue;
        if (e.kind == EventKind::Element) last[e.reg] = int(i);
        if (e.kind == EventKind::Tess) last[e.reg] = -2;
    }
    std::vector<uint32_t> w;
    for (const auto& e : d.events) {
        if (e.kind != EventKind::Element) continue;
        if (w.size() == max_elems)
            throw std::invalid_argument(fmt::format(
                "the declaration has more than {} elements (the fetch unit's MAX_ELEMS); element {} is v{}", max_elems,
                w.size() + 1, e.reg));
        if (e.value >= kFetchUnitMaxOffset)
            throw std::invalid_argument(fmt::format(
                "element {} (v{}) is at offset {}: the layout bus carries offsets below 2^20", w.size() + 1, e.reg, e.value));
        const uint32_t reg = (e.reg < 16 && last[e.reg] == -2) ? 31u : e.reg;
        w.push_back((e.code & 7u) | reg << 3 | uint32_t(e.stream & 15) << 8 | e.value << 12);
    }
    return w;
}

uint32_t fetch_unit_loaded(const decl::Declaration& d) {
    uint32_t m = 0;
    for (const auto& e : d.events) {
        if (e.reg >= 16) continue;
        if (e.kind == EventKind::Element) m |= 1u << e.reg;
        if (e.kind == EventKind::Tess) m &= ~(1u << e.reg);
    }
    return m;
}

std::array<uint32_t, 64> fetch_unit_vertex(const decl::Declaration& d, const std::array<uint32_t, 16>& base,
                                           const std::array<uint32_t, 16>& stride, uint32_t index, const MemoryRead& read) {
    fetch_unit_layout(d, UINT32_MAX);  // a valid declaration, offsets the bus can carry
    // Each stream's bytes of the vertex, placed at the elements' offsets: vs::fetch_vertex reads
    // them as vertex 0 of a stream of stride 0 (only the elements' bytes are filled).
    std::array<uint32_t, 16> need{};
    for (const auto& e : d.events)
        if (e.kind == EventKind::Element)
            need[e.stream] = std::max(need[e.stream], e.value + decl::data_type_size(e.code));
    std::array<std::vector<uint8_t>, 16> buf;
    Streams st{};
    for (uint32_t s = 0; s < 16; ++s)
        if (need[s]) {
            buf[s].assign(need[s], 0);
            st[s] = StreamBinding{buf[s].data(), need[s], 0, true};
        }
    size_t k = 0;
    for (const auto& e : d.events) {
        if (e.kind != EventKind::Element) continue;
        ++k;
        const uint32_t a = base[e.stream] + stride[e.stream] * index + e.value;  // mod 2^32 (the contract)
        const uint32_t n = decl::data_type_size(e.code);
        if (!read(a, n, buf[e.stream].data() + e.value))
            throw std::runtime_error(fmt::format(
                "element {} (v{}, stream {}, {} bytes at offset {}) of vertex {} reads bytes 0x{:08x}..0x{:08x}, which the "
                "memory given does not hold",
                k, e.reg, e.stream, n, e.value, index, a, uint32_t(a + n - 1)));
    }
    const auto v = fetch_vertex(d, st, 0);
    std::array<uint32_t, 64> out{};
    for (size_t r = 0; r < 16; ++r)
        for (size_t c = 0; c < 4; ++c) std::memcpy(&out[4 * r + c], &v[r][c], 4);
    return out;
}

}  // namespace vpsim::vs

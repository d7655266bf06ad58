#include "model/bench/ptc_replay.h"

#include <fmt/format.h>

#include <iterator>
#include <list>
#include <unordered_map>

namespace vpsim::bench {

uint64_t replay_shaded(const std::vector<DrawRefs>& draws, uint32_t entries, uint32_t batch_reset, bool lru) {
    uint64_t shaded = 0;
    for (const DrawRefs& d : draws) {
        if (!d.indexed || entries == 0) {
            shaded += d.refs.size();
            continue;
        }
        std::list<uint32_t> order;  // front: next to evict
        std::unordered_map<uint32_t, std::list<uint32_t>::iterator> where;
        uint64_t since = 0;
        for (uint32_t v : d.refs) {
            auto it = where.find(v);
            if (it != where.end()) {
                if (lru) order.splice(order.end(), order, it->second);  // a hit refreshes only an LRU
            } else {
                ++shaded;
                if (order.size() == entries) {
                    where.erase(order.front());
                    order.pop_front();
                }
                order.push_back(v);
                where[v] = std::prev(order.end());
            }
            if (batch_reset && ++since == batch_reset) {
                order.clear();
                where.clear();
                since = 0;
            }
        }
    }
    return shaded;
}

BeladyVerdict belady_anomaly(const std::vector<DrawRefs>& draws, uint32_t from, uint32_t to, uint32_t batch_reset,
                             uint64_t model_from, uint64_t model_to) {
    BeladyVerdict v;
    v.fifo_from = replay_shaded(draws, from, batch_reset, false);
    v.fifo_to = replay_shaded(draws, to, batch_reset, false);
    v.lru_from = replay_shaded(draws, from, batch_reset, true);
    v.lru_to = replay_shaded(draws, to, batch_reset, true);
    v.shown = v.fifo_from == model_from && v.fifo_to == model_to && v.fifo_to > v.fifo_from && v.lru_to <= v.lru_from;
    if (v.shown)
        v.note = fmt::format("Belady's anomaly: a FIFO replay shades {} -> {}, an LRU {} -> {}", v.fifo_from, v.fifo_to,
                             v.lru_from, v.lru_to);
    else
        v.note = fmt::format("not Belady's anomaly: FIFO replay {} -> {} (model {} -> {}), LRU {} -> {}", v.fifo_from,
                             v.fifo_to, model_from, model_to, v.lru_from, v.lru_to);
    return v;
}

}  // namespace vpsim::bench

// A shrinker that keeps the bug: delta debugging over *units* of an input (a unit is what can go
// as a whole: for a token array, a token with its payload), then simplifications the caller
// offers (a shorter payload, a simpler field), each kept only when `keeps` says the candidate
// still shows the same bug -- in a cross-check, the same signature of the first difference (the
// same event kind and field, the same rule), not merely some difference. Generic over the item
// type; tb/xcheck.cpp uses it for declaration token arrays, other cross-checks for theirs.
#pragma once

#include <algorithm>
#include <cstddef>
#include <functional>
#include <utility>
#include <vector>

namespace vpsim::tb {

using Span = std::pair<size_t, size_t>;  // [first, last) items of one unit

template <class T>
struct ShrinkSpec {
    // The units of an input, in order, covering it without overlap. Empty: every item is a unit.
    std::function<std::vector<Span>(const std::vector<T>&)> units;
    // Simpler variants of an input to try, in order of preference (each must be smaller or
    // simpler, so the loop ends). Empty: none.
    std::function<std::vector<std::vector<T>>(const std::vector<T>&)> simplify;
    // Candidate inputs tried at most (each costs a run of both sides).
    int budget = 4000;
};

struct ShrinkStats {
    size_t from = 0, to = 0;  // items
    int tries = 0;            // candidates run
};

// The smallest input found for which `keeps` holds (the input itself must). Never returns an
// empty input.
template <class T>
std::vector<T> shrink_keeping(std::vector<T> input, const std::function<bool(const std::vector<T>&)>& keeps,
                              const ShrinkSpec<T>& spec = {}, ShrinkStats* stats = nullptr) {
    ShrinkStats st;
    st.from = input.size();
    auto units_of = [&](const std::vector<T>& v) {
        if (spec.units) return spec.units(v);
        std::vector<Span> u;
        for (size_t i = 0; i < v.size(); ++i) u.emplace_back(i, i + 1);
        return u;
    };
    auto try_it = [&](const std::vector<T>& cand) {
        if (cand.empty() || st.tries >= spec.budget) return false;
        ++st.tries;
        return keeps(cand);
    };
    bool progress = true;
    while (progress && st.tries < spec.budget) {
        progress = false;
        // Remove runs of `chunk` units, halving the chunk down to one unit (ddmin's complement step).
        std::vector<Span> units = units_of(input);
        size_t chunk = std::max<size_t>(1, units.size() / 2);
        while (st.tries < spec.budget && !units.empty()) {
            bool removed = false;
            for (size_t u = 0; u < units.size() && st.tries < spec.budget;) {
                const size_t last_unit = std::min(units.size(), u + chunk) - 1;
                const size_t from = units[u].first, to = units[last_unit].second;
                std::vector<T> cand;
                cand.reserve(input.size() - (to - from));
                cand.insert(cand.end(), input.begin(), input.begin() + long(from));
                cand.insert(cand.end(), input.begin() + long(to), input.end());
                if (try_it(cand)) {
                    input.swap(cand);
                    units = units_of(input);  // the units after the cut may parse differently
                    removed = progress = true;
                } else {
                    u += chunk;
                }
            }
            if (!removed) {
                if (chunk == 1) break;
                chunk /= 2;
            }
        }
        // Simplifications: the first that keeps the bug is taken, then units are tried again.
        if (spec.simplify)
            for (const auto& cand : spec.simplify(input))
                if (try_it(cand)) {
                    input = cand;
                    progress = true;
                    break;
                }
    }
    st.to = input.size();
    if (stats) *stats = st;
    return input;
}

}  // namespace vpsim::tb

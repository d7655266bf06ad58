// The patch handle cache (see patch_cache.h).
#include "model/tess/patch_cache.h"

#include <fmt/format.h>

#include <cstring>

namespace vpsim::tess {

namespace {

bool same_segs(const float* segs, size_t n, bool last_null, const std::array<float, 4>& last) {
    if ((segs == nullptr) != last_null) return false;
    return segs == nullptr || std::memcmp(segs, last.data(), n * sizeof(float)) == 0;
}
bool same_state(const PatchState& a, const PatchState& b) {
    return a.edge_style == b.edge_style && std::memcmp(&a.patch_segments, &b.patch_segments, sizeof(float)) == 0;
}
void set_info(bool, const RectPatchInfo& i, RectPatchInfo& r, TriPatchInfo&) { r = i; }
void set_info(bool, const TriPatchInfo& i, RectPatchInfo&, TriPatchInfo& t) { t = i; }

}  // namespace

template <class Info>
TessOutput PatchCache::draw(bool tri, uint32_t handle, const float* segs, const Info* info, const decl::Declaration& d,
                            const vs::Streams& streams, const PatchState& state) {
    const size_t nsegs = tri ? 3 : 4;
    const char* what = tri ? "DrawTriPatch" : "DrawRectPatch";
    if (!info) {
        if (handle == 0) throw TessError("T6", fmt::format("{} with handle 0 and NULL patch info", what));
        auto it = entries_.find(handle);
        if (it == entries_.end())
            throw TessError("T7", fmt::format("{} with NULL patch info for handle {}, which holds no patch", what, handle));
        Entry& e = it->second;
        if (e.tri != tri)
            throw TessError("T12", fmt::format("{} with NULL patch info for handle {}, which holds a {} patch", what, handle,
                                               e.tri ? "tri" : "rect"));
        validate_declaration(d, tri, profile_);
        ++counters_.hits;
        if (e.have_last && same_segs(segs, nsegs, e.last_null_segs, e.last_segs) && same_state(state, e.last_state) &&
            e.last_events == d.events) {
            ++counters_.reused;
            return e.last;
        }
        TessOutput out = tri ? tessellate(d, e.tri_info, e.control, segs, state, profile_)
                             : tessellate(d, e.rect, e.control, segs, state, profile_);
        e.have_last = true;
        e.last_null_segs = segs == nullptr;
        e.last_segs = {};
        if (segs) std::memcpy(e.last_segs.data(), segs, nsegs * sizeof(float));
        e.last_state = state;
        e.last_events = d.events;
        e.last = out;
        return out;
    }
    validate(*info, profile_);
    validate_declaration(d, tri, profile_);
    Entry e;
    e.tri = tri;
    set_info(tri, *info, e.rect, e.tri_info);
    check_output_limit(*info, segs, state, profile_);
    e.control = fetch_control_points(d, streams, control_indices(*info));
    TessOutput out = tessellate(d, *info, e.control, segs, state, profile_);
    if (handle == 0) {
        ++counters_.uncached;
        return out;
    }
    e.have_last = true;
    e.last_null_segs = segs == nullptr;
    if (segs) std::memcpy(e.last_segs.data(), segs, nsegs * sizeof(float));
    e.last_state = state;
    e.last_events = d.events;
    e.last = out;
    auto [it, fresh] = entries_.insert_or_assign(handle, std::move(e));
    (void)it;
    ++(fresh ? counters_.inserts : counters_.replacements);
    return out;
}

TessOutput PatchCache::draw_rect(uint32_t handle, const float* segs, const RectPatchInfo* info,
                                 const decl::Declaration& d, const vs::Streams& streams, const PatchState& state) {
    return draw(false, handle, segs, info, d, streams, state);
}

TessOutput PatchCache::draw_tri(uint32_t handle, const float* segs, const TriPatchInfo* info,
                                const decl::Declaration& d, const vs::Streams& streams, const PatchState& state) {
    return draw(true, handle, segs, info, d, streams, state);
}

void PatchCache::delete_patch(uint32_t handle) {
    auto it = entries_.find(handle);
    if (it == entries_.end())
        throw TessError("T8", fmt::format("DeletePatch({}): the handle holds no patch", handle));
    entries_.erase(it);
    ++counters_.deletes;
}

}  // namespace vpsim::tess

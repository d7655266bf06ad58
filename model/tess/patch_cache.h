// The patch handle cache of DrawRectPatch / DrawTriPatch / DeletePatch (spec "Handles",
// docs/tessellation.md). A non-zero handle caches the patch's fetched control points (enough to
// redraw with new segment counts without the streams) and the last tessellation (reused when the
// segments, render state and declaration are unchanged). Rect and tri patches share one handle space.
#pragma once

#include "model/tess/tessellator.h"

#include <cstdint>
#include <map>
#include <optional>

namespace vpsim::tess {

class PatchCache {
public:
    struct Counters {
        uint64_t hits = 0;          // draws with NULL info that used a cached patch
        uint64_t reused = 0;        // ... of which reused the cached tessellation unchanged
        uint64_t inserts = 0;       // info for a new non-zero handle
        uint64_t replacements = 0;  // info for a known handle
        uint64_t deletes = 0;       // DeletePatch of a known handle
        uint64_t uncached = 0;      // handle 0 draws
    };

    explicit PatchCache(TessProfile profile = {}) : profile_(profile) {}

    // DrawRectPatch(handle, segs, info): `info` null redraws the cached patch (T6 for handle 0,
    // T7 for an unknown handle, T12 when the handle holds a tri patch). Validation errors (T1..T5,
    // T9..T11) leave the cache unchanged.
    TessOutput draw_rect(uint32_t handle, const float* segs, const RectPatchInfo* info, const decl::Declaration& d,
                         const vs::Streams& streams, const PatchState& state);
    TessOutput draw_tri(uint32_t handle, const float* segs, const TriPatchInfo* info, const decl::Declaration& d,
                        const vs::Streams& streams, const PatchState& state);
    // DeletePatch(handle): T8 when the handle holds nothing (handle 0 included).
    void delete_patch(uint32_t handle);

    bool contains(uint32_t handle) const { return entries_.count(handle) != 0; }
    // The patch description a handle holds (null: none, or the other kind of patch).
    const RectPatchInfo* rect_info(uint32_t handle) const {
        auto it = entries_.find(handle);
        return it == entries_.end() || it->second.tri ? nullptr : &it->second.rect;
    }
    const TriPatchInfo* tri_info(uint32_t handle) const {
        auto it = entries_.find(handle);
        return it == entries_.end() || !it->second.tri ? nullptr : &it->second.tri_info;
    }
    size_t size() const { return entries_.size(); }
    const Counters& counters() const { return counters_; }
    const TessProfile& profile() const { return profile_; }

private:
    struct Entry {
        bool tri = false;
        RectPatchInfo rect{};
        TriPatchInfo tri_info{};
        std::vector<Registers> control;
        // The last tessellation and what it depended on.
        bool have_last = false;
        bool last_null_segs = false;
        std::array<float, 4> last_segs{};
        PatchState last_state{};
        std::vector<decl::Event> last_events;
        TessOutput last;
    };
    template <class Info>
    TessOutput draw(bool tri, uint32_t handle, const float* segs, const Info* info, const decl::Declaration& d,
                    const vs::Streams& streams, const PatchState& state);

    TessProfile profile_;
    std::map<uint32_t, Entry> entries_;
    Counters counters_;
};

}  // namespace vpsim::tess

// What flows between the pipeline's units (docs/timing-model.md): draws, vertex jobs (one per
// vertex to shade, alive from the index fetch's cache miss to the output's emission) and the
// references the output emits in draw order. Function values ride on the jobs: the outputs the
// functional core computed for the vertex.
#pragma once

#include "model/pipe/post_transform_cache.h"
#include "model/scene/scene_machine.h"
#include "model/sc/timed_unit.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fetch.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::sc {

struct DrawState {
    uint32_t id = 0;                // draws in order from 0
    scene::DrawSetup setup;         // shader, streams, indices
    uint64_t const_epoch = 0;       // constant writes that must be done before its vertices shade
    // Constant memory as the draw must see it (the command-order state, from the front end):
    // the ALU checks the constant loader's memory against it when the draw's first vertex enters.
    std::shared_ptr<const vs::Constants> constants;
    std::array<uint64_t, 16> stream_address{};  // modelled address of each stream's buffer
    uint64_t unique = 0;            // distinct vertices referenced
    Cycle start = 0;                // the front end sent the draw
};
// A draw is written once, by the front end, and only read after that: units keep their own
// progress of a draw themselves.

// The vertices of a draw the index fetch sends to be shaded (its post-transform cache misses),
// in order, carried by every job of the draw so the functional core shades exactly these. It
// finds them as it is read, with its own copy of the index fetch's cache replaying the draw's
// references in the same order (the same look-ups give the same misses): the functional core
// reads a batch ahead of the jobs, and nothing per miss is kept (a list of a draw's misses grew
// with its vertices: 4 bytes each, ~8 MB for the 1M-vertex sphere).
class MissStream {
public:
    MissStream(const scene::DrawSetup& s, const pipe::PostTransformCacheParams& cache)
        : s_(s), params_(cache), cache_(cache) {}
    // The same stream from the draw's start, to read on its own (each of N vertex ALUs reads the
    // draw's misses itself, skipping those shaded by the others).
    MissStream fresh() const { return MissStream(s_, params_); }
    // The next miss's vertex index; false after the draw's last.
    bool next(uint32_t& v) {
        while (ref_ < s_.refs) {
            const uint32_t x = s_.vertex(ref_++);
            if (!(s_.indexed && cache_.lookup(x))) {
                v = x;
                return true;
            }
        }
        return false;
    }

private:
    const scene::DrawSetup& s_;
    pipe::PostTransformCacheParams params_;
    pipe::PostTransformCache cache_;  // as the index fetch's after its flush at the draw's start
    uint64_t ref_ = 0;
};

// What the channels carry besides draws (`const DrawState*`), constant batches, references and
// the counts below: each thing its own type, so a link between two ports that carry different
// things (a credit into a job port, draws done into constants written) is refused when the
// pipeline binds it (model/sc/timed_unit.h, PortBase::bind).
struct Job {  // a vertex job, by its handle in the VertexPool
    uint32_t handle = 0;
    bool operator==(const Job& o) const { return handle == o.handle; }
    bool operator!=(const Job& o) const { return handle != o.handle; }
};
struct Credit {  // input buffers the vertex ALU has freed
    uint32_t buffers = 0;
};
struct DrawsDone {  // draws that have left the vertex ALU, so far (a running count)
    uint64_t draws = 0;
};
struct ConstantsWritten {  // constant vectors the loader has written, so far (a running count)
    uint64_t vectors = 0;
};

struct VertexJob {  // (VertexPool::alloc resets each field: keep it in step with this list)
    uint64_t seq = 0;  // shading order over the run
    const DrawState* draw = nullptr;
    uint32_t index = 0;  // vertex index
    std::shared_ptr<MissStream> misses;  // the draw's misses; this job is its miss number `miss`
    uint64_t miss = 0;
    vs::VertexOutputs outputs{};
    Cycle t_fetch = 0, t_alu = 0;  // trace spans: first request, entry into the ALU
};

// Jobs by handle; the handles in use are bounded by the output's order queue.
class VertexPool {
public:
    Job alloc() {
        if (free_.empty()) {
            jobs_.emplace_back();
            return Job{uint32_t(jobs_.size() - 1)};
        }
        const uint32_t h = free_.back();
        free_.pop_back();
        // As VertexJob{}, field by field in place (no ~250-byte temporary to build and copy).
        VertexJob& j = jobs_[h];
        j.seq = 0;
        j.draw = nullptr;
        j.index = 0;
        j.misses.reset();
        j.miss = 0;
        j.outputs = vs::VertexOutputs{};
        j.t_fetch = j.t_alu = 0;
        return Job{h};
    }
    void release(Job j) { free_.push_back(j.handle); }
    VertexJob& operator[](Job j) { return jobs_[j.handle]; }

private:
    std::deque<VertexJob> jobs_;  // stable references
    std::vector<uint32_t> free_;
};

// One entry of the output's order queue: a reference of a draw, or the draw's end.
struct OrderRef {
    enum Kind : uint8_t { Miss, Hit, DrawEnd } kind = Miss;
    const DrawState* draw = nullptr;
    uint32_t index = 0;  // vertex index (Hit: looked up in the output's recent vertices)
    Job job;             // Miss: its job
    uint64_t ref = 0;    // position in the draw
};

// Constant vectors for the constant loader: one SetVertexShader or SetVertexShaderConstant.
struct ConstantBatch {
    std::vector<scene::ConstantWrite> writes;
    uint64_t draw_fence = 0;  // draws issued before it
    std::string command;      // "SetVertexShader" ..., for the trace
};

// The tessellator tells the index fetch how many of a generated draw's vertices exist.
struct GeneratedReady {
    uint32_t draw = 0;   // DrawState::id
    uint64_t ready = 0;  // vertices 0..ready-1 exist
};

// The index fetch has read every reference of a draw: `jobs` vertices were sent to be shaded.
struct DrawEnd {
    uint32_t draw = 0;
    uint64_t jobs = 0;
};

// A vertex of a draw could not be fetched (an index beyond its stream's data); the pipeline
// turns it into the scene error of the draw's command.
struct DrawFetchError : std::runtime_error {
    DrawFetchError(const scene::DrawSetup& d, const vs::FetchError& e) : std::runtime_error(e.what()), setup(&d), error(e) {}
    const scene::DrawSetup* setup;
    vs::FetchError error;
};

}  // namespace vpsim::sc

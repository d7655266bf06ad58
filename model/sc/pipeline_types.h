// What flows between the pipeline's units (docs/timing-model.md): draws, vertex jobs (one per
// vertex to shade, alive from the index fetch's cache miss to the output's emission) and the
// references the output emits in draw order. Function values ride on the jobs: the outputs the
// functional core computed for the vertex.
#pragma once

#include "model/scene/scene_machine.h"
#include "model/sc/timed_unit.h"
#include "model/vs/vs_exec.h"

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

namespace vpsim::sc {

class VertexAluProgram;  // the ALU's slot program of a shader (vertex_alu.h)

struct DrawState {
    uint32_t id = 0;                // draws in order from 0
    scene::DrawSetup setup;         // shader, streams, indices
    uint64_t const_epoch = 0;       // constant writes that must be done before its vertices shade
    // Constant memory as the draw must see it (the command-order state, from the front end):
    // the ALU checks the constant loader's memory against it when the draw's first vertex enters.
    std::shared_ptr<const vs::Constants> constants;
    std::array<uint64_t, 16> stream_address{};  // modelled address of each stream's buffer
    const VertexAluProgram* program = nullptr;  // set by the ALU at the draw's first vertex
    // Progress, for the draw tracker.
    bool indices_done = false;  // the index fetch has read every reference
    uint64_t unique = 0;        // distinct vertices referenced
    uint64_t generated_ready = 0;  // tessellated draws: generated vertices that exist so far
    uint64_t jobs = 0;          // vertices to shade (cache misses)
    uint64_t retired = 0;       // of them, finished in the ALU
    uint64_t emitted = 0;       // references emitted by the output
    Cycle start = 0;            // the front end sent the draw
};

struct VertexJob {
    uint64_t seq = 0;  // shading order over the run
    DrawState* draw = nullptr;
    uint32_t index = 0;  // vertex index
    vs::VertexOutputs outputs{};
    Cycle t_fetch = 0, t_alu = 0;  // trace spans: first request, entry into the ALU
};

// Jobs by handle; the handles in use are bounded by the output's order queue.
class VertexPool {
public:
    uint32_t alloc() {
        if (free_.empty()) {
            jobs_.emplace_back();
            return uint32_t(jobs_.size() - 1);
        }
        const uint32_t h = free_.back();
        free_.pop_back();
        jobs_[h] = VertexJob{};
        return h;
    }
    void release(uint32_t h) { free_.push_back(h); }
    VertexJob& operator[](uint32_t h) { return jobs_[h]; }

private:
    std::deque<VertexJob> jobs_;  // stable references
    std::vector<uint32_t> free_;
};

// One entry of the output's order queue: a reference of a draw, or the draw's end.
struct OrderRef {
    enum Kind : uint8_t { Miss, Hit, DrawEnd } kind = Miss;
    DrawState* draw = nullptr;
    uint32_t index = 0;  // vertex index (Hit: looked up in the output's recent vertices)
    uint32_t job = 0;    // Miss: its job
    uint64_t ref = 0;    // position in the draw
};

// Draws in flight: which have left the ALU (every vertex shaded), so a constant write behind
// them may proceed.
class DrawTracker {
public:
    DrawState& add(std::unique_ptr<DrawState> d) {
        draws_.push_back(std::move(d));
        return *draws_.back();
    }
    // The index fetch finished reading a draw / the ALU retired one of its jobs.
    void indices_done(DrawState& d) {
        d.indices_done = true;
        advance();
    }
    void retired(DrawState& d) {
        ++d.retired;
        advance();
    }
    uint64_t alu_done() const { return alu_done_; }  // draws 0..alu_done-1 have left the ALU
    void on_alu_done(TimedUnit* u) { waiter_ = u; }
    size_t size() const { return draws_.size(); }

private:
    void advance() {
        bool moved = false;
        while (alu_done_ < draws_.size() && draws_[alu_done_]->indices_done &&
               draws_[alu_done_]->retired == draws_[alu_done_]->jobs)
            ++alu_done_, moved = true;
        if (moved && waiter_) waiter_->wake(0);
    }
    std::vector<std::unique_ptr<DrawState>> draws_;  // small: one per draw command
    uint64_t alu_done_ = 0;
    TimedUnit* waiter_ = nullptr;
};

}  // namespace vpsim::sc

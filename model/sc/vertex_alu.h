// The vertex ALU: `engines` engines, each with `contexts` vertices in flight (a scoreboard per
// vertex). An engine issues, per cycle, the next instruction slot of one of its vertices (round
// robin over those that can issue) to the vector pipe or the scalar pipe, and with co-issue on,
// a second slot of the same vertex to the other pipe in the same cycle:
//   off     one slot per cycle;
//   pairs   the slot right after the head, if it goes to the other pipe and is independent;
//   window  the first other-pipe slot among the next `window`-1 that is independent of every
//           slot it would overtake.
// Macro instructions expand to slots (m4x4 -> 4 dp4, m3x3 -> 3 dp3, frc -> 3, exp/log -> the
// profile's slots, a scalar slot then a dependent vector chain). Results are ready `latency`
// cycles after issue; the scalar pipe accepts rcp/rsq every `rcp_interval` cycles. Vertices
// retire in the order they entered (the output is in order) into the output's buffers.
//
// Function: when a vertex enters a context the ALU asks the functional core for its outputs.
// The core shades the draw's vertices in batches (DrawFunction: the fast path, bit-identical to
// the reference interpreter, over the draw's cache misses in order, found with its own copy of
// the post-transform cache) with the constants the draw must see; when the draw's first vertex
// enters, the constant loader's memory must equal them (an internal error otherwise).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/pipe/post_transform_cache.h"
#include "model/sc/constant_loader.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/vertex_fetch.h"
#include "model/vs/vs_fast.h"

#include <map>

namespace vpsim::sc {

struct VertexAluParams {
    uint32_t engines = 1;         // vertex engines
    uint32_t contexts = 3;        // vertices in flight per engine
    uint32_t vector_latency = 3;  // cycles from issue to result, vector pipe
    uint32_t scalar_latency = 3;  // cycles from issue to result, scalar pipe
    uint32_t dot_latency = 3;     // dp3 / dp4 and the matrix macros' slots (vector pipe)
    uint32_t rcp_rsq_latency = 3; // rcp / rsq (scalar pipe)
    uint32_t rcp_interval = 2;    // scalar pipe cycles per rcp / rsq
    std::string coissue = "window";
    uint32_t window = 4;          // instructions looked at for a co-issue partner (head included)
    bool port_limit = true;       // a co-issued pair reads at most one input and one constant register

    static constexpr const char* kUnit = "vertex_alu";
    static ParamTable table();
    static VertexAluParams from(const ParamSet& p);
};

// The slot form of a program, with what each slot reads and writes (per component), for the
// scoreboard. Registers: r0..r11 = 0..11, a0 = 12, outputs 13..25, macro temporaries 26, 27.
struct AluSlot {
    enum Pipe : uint8_t { Vector = 0, Scalar = 1 };
    uint8_t pipe = Vector;
    uint8_t latency = 1;
    uint8_t interval = 1;  // scalar pipe occupancy
    uint8_t nreads = 0;
    std::array<uint8_t, 4> read_reg{}, read_mask{};
    uint8_t write_reg = 0, write_mask = 0;
    // The same, flattened for the scoreboard: register * 4 + component.
    uint8_t nread_comps = 0, nwrite_comps = 0;
    std::array<uint8_t, 16> read_comps{};
    std::array<uint8_t, 4> write_comps{};
    int32_t input = -1;     // v register read, for the port limit
    int32_t constant = -1;  // c register read (relative: 0x10000 + base)
    uint32_t instruction = 0;
    bool ends_instruction = false;
};

class VertexAluProgram {
public:
    static constexpr unsigned kRegs = 28;
    static constexpr unsigned kMaxWindow = 32;
    VertexAluProgram(const vs::Program& p, const vs::Profile& profile, const VertexAluParams& params);

    const std::vector<AluSlot>& slots() const { return slots_; }
    // Bit d (1..kMaxWindow-1): slot j-d and slot j conflict (RAW, WAR or WAW).
    uint32_t conflicts(size_t j) const { return conflicts_[j]; }
    // The first slot after j that goes to the other pipe (slots().size() if none).
    size_t next_other_pipe(size_t j) const { return next_other_[j]; }
    size_t instructions() const { return instructions_; }

private:
    std::vector<AluSlot> slots_;
    std::vector<uint32_t> conflicts_;
    std::vector<size_t> next_other_;
    size_t instructions_ = 0;
};

// The functional values of one draw's shaded vertices, in shading order, a batch at a time.
class DrawFunction {
public:
    DrawFunction(const DrawState& d, const pipe::PostTransformCacheParams& cache, const vs::FastShader& fs,
                 const scene::SceneMachine& machine);
    // The outputs of the draw's next shaded vertex, which must be vertex `index`.
    const vs::VertexOutputs& next(uint32_t index);

private:
    void refill();
    const DrawState& d_;
    pipe::PostTransformCache cache_;
    const vs::FastShader& fs_;
    const scene::SceneMachine& machine_;
    uint64_t pos_ = 0;  // next reference to look at
    std::vector<uint32_t> index_;
    std::vector<vs::Vec4> inputs_;
    std::vector<vs::VertexOutputs> out_;
    size_t next_ = 0;
};

class VertexAlu : public TimedUnit {
public:
    VertexAlu(const sc_core::sc_module_name& n, const VertexAluParams& p, const vs::Profile& profile,
              uint32_t output_buffers, VertexPool& pool, DrawTracker& draws, ConstantLoader& loader,
              VertexFetch& fetch, const pipe::PostTransformCacheParams& cache, const scene::SceneMachine& machine,
              Probes* probes);

    Channel<uint32_t>& output() { return out_; }
    void connect(TimedUnit* output_unit) { out_.connect(this, output_unit, probes_); }

    Cycle step(Cycle now) override;
    void finish(Cycle end) override;
    bool busy_with_work() const override { return !order_.empty(); }
    const StatGroup& stats() const { return stats_; }
    const VertexAluParams& params() const { return p_; }

private:
    enum class Coissue { Off, Pairs, Window };
    struct Context {
        bool active = false;
        uint32_t job = 0;
        const VertexAluProgram* prog = nullptr;
        uint32_t pc = 0;
        uint64_t issued = 0;  // bit i: slot pc + i issued
        Cycle from = 0;       // first cycle it may issue
        Cycle done_at = 0;    // every result written
        std::array<Cycle, VertexAluProgram::kRegs * 4> ready{};
        int track = -1;
    };
    struct Engine {
        std::vector<Context> ctx;
        Cycle scalar_free = 0;
        uint32_t rr = 0;
        int sig_issue = -1;
        uint64_t last_issue_code = 0;
    };
    const VertexAluProgram& program_of(DrawState& d);
    const vs::FastShader& fast_of(const DrawState& d);
    Cycle earliest(const Context& c, const AluSlot& s, const Engine& e) const;  // when slot s could issue
    void issue(Context& c, const AluSlot& s, Engine& e, Cycle now);
    bool finished(const Context& c) const { return c.pc >= c.prog->slots().size(); }
    int try_issue(Engine& e, Cycle now);  // 0 nothing, 1 one slot, 2 a co-issued pair

    VertexAluParams p_;
    Coissue mode_;
    vs::Profile profile_;
    VertexPool& pool_;
    DrawTracker& draws_;
    ConstantLoader& loader_;
    VertexFetch& fetch_;
    Probes* probes_;
    Channel<uint32_t> out_;
    std::vector<Engine> engines_;
    // (engine, context) of the vertices in flight, in entry order: a ring of engines x contexts.
    struct Order {
        std::vector<std::pair<uint32_t, uint32_t>> slots;
        size_t head = 0, count = 0;
        bool empty() const { return count == 0; }
        size_t size() const { return count; }
        const std::pair<uint32_t, uint32_t>& front() const { return slots[head]; }
        void pop_front() {
            head = head + 1 == slots.size() ? 0 : head + 1;
            --count;
        }
        void push_back(std::pair<uint32_t, uint32_t> v) {
            size_t t = head + count;
            if (t >= slots.size()) t -= slots.size();
            slots[t] = v;
            ++count;
        }
    } order_;
    uint32_t next_engine_ = 0;
    std::map<const vs::CreatedShader*, std::unique_ptr<VertexAluProgram>> programs_;
    std::map<const vs::CreatedShader*, std::unique_ptr<vs::FastShader>> fast_;
    pipe::PostTransformCacheParams cache_params_;
    const scene::SceneMachine& machine_;
    const DrawState* function_draw_ = nullptr;
    std::unique_ptr<DrawFunction> function_;
    int sig_active_ = -1;

    StatGroup stats_;
    CycleAccount acct_;
    Counter &vertices_, &instructions_, &slots_, &vector_, &scalar_, &issue_cycles_, &coissue_cycles_, &engine_cycles_;
    Counter &st_dep_, &st_scalar_, &st_output_, &st_latency_, &st_const_;
};

}  // namespace vpsim::sc

// The vertex ALU: `engines` engines, each with `contexts` vertices in flight (a scoreboard per
// vertex). An engine issues, per cycle, the next instruction slot of one of its vertices (round
// robin over those that can issue, or with `schedule=oldest` the oldest that can) to the vector
// pipe or the scalar pipe, and with co-issue on, a second slot of the same vertex to the other
// pipe in the same cycle:
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
// the reference interpreter, over the draw's miss list, which the index fetch found and every
// job carries) with the constants the draw must see; when the draw's first vertex enters, the
// constant memory (a read-only view of the loader's) must equal them (an internal error
// otherwise).
//
// Ports: `in` fetched vertices; `out` shaded vertices to the output; `credits` frees the
// vertex's input buffer in the vertex fetch when it retires; `draw_end` the index fetch's count
// of each draw's jobs; `constants_written` the loader's count of vectors written (a draw's
// vertices wait for its epoch); `draws_done` tells the loader how many draws have left.
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"
#include "model/vs/vs_fast.h"

#include <map>

namespace vpsim::sc {

struct VertexAluParams {
    uint32_t engines = 1;         // vertex engines
    uint32_t contexts = 3;        // vertices in flight per engine
    uint32_t vector_latency = 9;  // cycles from issue to result, vector pipe
    uint32_t scalar_latency = 9;  // cycles from issue to result, scalar pipe
    uint32_t dot_latency = 9;     // dp3 / dp4 and the matrix macros' slots (vector pipe)
    uint32_t rcp_rsq_latency = 9; // rcp / rsq (scalar pipe)
    uint32_t rcp_interval = 2;    // scalar pipe cycles per rcp / rsq
    std::string coissue = "window";
    std::string schedule = "oldest";       // which vertex issues first: round_robin or oldest
    uint32_t window = 4;          // instructions looked at for a co-issue partner (head included)
    bool port_limit = true;       // a co-issued pair reads at most one input and one constant register

    static constexpr const char* kUnit = "vertex_alu";
    static const ParamBindings<VertexAluParams>& bindings();  // each parameter, declared once
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
    size_t instructions() const { return instructions_; }

    // The co-issue search as tables, made once per program for the unit's coissue, window and
    // port_limit (what the search asks that does not change while the program runs).
    // Bit d of partners(pc): slot pc + d may issue beside head slot pc, if it is not issued yet,
    // passes no unissued slot it conflicts with and its operands are ready: it goes to the other
    // pipe, is within the window (pairs: d = 1 only) and the program, and with port_limit reads no
    // other input or constant register than the head.
    uint32_t partners(size_t pc) const { return partners_[pc]; }
    // Bit i of blockers(pc)[d] (0 < i < d): slot pc + i conflicts with slot pc + d (RAW, WAR or
    // WAW), so slot pc + d may not pass it while it is unissued.
    const uint32_t* blockers(size_t pc) const { return blockers_.data() + pc * window_; }

private:
    std::vector<AluSlot> slots_;
    std::vector<uint32_t> partners_;
    std::vector<uint32_t> blockers_;  // slots x window
    size_t window_ = 1;
    size_t instructions_ = 0;
};

// The functional values of one draw's shaded vertices, in shading order, a batch at a time.
// It reads the draw's misses from a stream of its own (MissStream::fresh), so that each of N
// vertex ALUs, given every N-th job of a draw by a job_split, reads them all and shades the
// batches holding its jobs (one ALU shades every miss, N ALUs each batch N times).
class DrawFunction {
public:
    DrawFunction(const DrawState& d, std::shared_ptr<MissStream> misses, const vs::FastShader& fs);
    // The outputs of the job's vertex: a miss of the draw after the previous job's (misses in
    // between are other ALUs'); an internal error otherwise.
    const vs::VertexOutputs& next(const VertexJob& j);

private:
    void refill(uint64_t from);  // the batch starting at miss `from`
    const DrawState& d_;
    std::shared_ptr<MissStream> misses_;  // the jobs' (identifies the draw's stream)
    MissStream own_;                      // read here
    const vs::FastShader& fs_;
    uint64_t pos_ = 0;    // next miss to shade
    bool misses_done_ = false;  // misses_ has given the draw's last
    uint64_t first_ = 0;  // the miss out_[0] belongs to
    std::vector<vs::Vec4> inputs_;
    std::vector<vs::VertexOutputs> out_;
    size_t next_ = 0;
};

class VertexAlu : public TimedUnit {
public:
    // `constants`: the constant memory the vertices read (a read-only view; the loader writes it).
    VertexAlu(const sc_core::sc_module_name& n, const VertexAluParams& p, const vs::Profile& profile, VertexPool& pool,
              const vs::Constants& constants, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override;
    bool busy_with_work() const override { return !order_.empty(); }
    const StatGroup& stats() const override { return stats_; }
    const VertexAluParams& params() const { return p_; }

private:
    enum class Coissue { Off, Pairs, Window };
    struct Context {
        bool active = false;
        Job job;
        const VertexAluProgram* prog = nullptr;
        const AluSlot* slots = nullptr;  // prog->slots().data()
        uint32_t pc = 0;
        uint64_t issued = 0;  // bit i: slot pc + i issued
        Cycle from = 0;       // first cycle it may issue
        Cycle done_at = 0;    // every result written
        // earliest_ops of slot pc: changes only when this vertex issues; kNever when there is
        // nothing to issue (no vertex, or every slot issued), so one compare tells who can issue.
        Cycle head_at = kNever;
        uint32_t nslots = 0;  // prog->slots().size(), kept here so the per-cycle checks stay in the context
        bool head_scalar = false;  // slot pc goes to the scalar pipe
        std::array<Cycle, VertexAluProgram::kRegs * 4> ready{};
        int track = -1;
    };
    struct Engine {
        std::vector<Context> ctx;
        Cycle scalar_free = 0;
        uint32_t rr = 0;
        // Its contexts holding a vertex with slots left to issue (changes at entry and when a
        // vertex's last slot issues; engine_cycles_until reads it instead of scanning contexts).
        uint32_t slots_left = 0;
        // Its vertices in flight in entry order (= retire order; a subsequence of order_): a ring
        // of `contexts` entries that the oldest-first issue search walks without order_'s other
        // engines' vertices and its wrap-around arithmetic.
        std::vector<Context*> age;
        uint32_t age_head = 0, age_count = 0;
        int sig_issue = -1;
        uint64_t last_issue_code = 0;
    };
    const VertexAluProgram& program_of(const DrawState& d);
    void draw_progress(Cycle now);  // counts the draws that have left (in order)
    const vs::FastShader& fast_of(const DrawState& d);
    Cycle earliest(const Context& c, const AluSlot& s, const Engine& e) const;  // when slot s could issue
    // The same without the scalar pipe: what the vertex's own registers allow.
    Cycle earliest_ops(const Context& c, const AluSlot& s) const;
    // earliest() of the head slot (pc), from the cached head_at.
    Cycle head_earliest(const Context& c, const Engine& e) const {
        return c.head_scalar ? std::max(c.head_at, e.scalar_free) : c.head_at;
    }
    void new_head(Context& c) const {
        if (!finished(c)) {
            const AluSlot& s = c.slots[c.pc];
            c.head_at = earliest_ops(c, s);
            c.head_scalar = s.pipe == AluSlot::Scalar;
        } else {
            c.head_at = kNever;
        }
    }
    void issue(Context& c, const AluSlot& s, Engine& e, Cycle now);
    bool finished(const Context& c) const { return c.pc >= c.nslots; }
    int try_issue(uint32_t ei, Engine& e, Cycle now);  // 0 nothing, 1 one slot, 2 a co-issued pair
    int issue_from(Engine& e, Context& c, Cycle now);   // the same, from a vertex whose head slot can issue now
    // step's four steps, in order (vertex_alu.cpp)
    bool retire_oldest(Cycle now);
    enum class Accept { None, Took, ConstWait };
    Accept accept_vertex(Cycle now);
    bool issue_engines(Cycle now);
    Cycle account_wait(Cycle now, bool const_wait);

    VertexAluParams p_;
    Coissue mode_;
    bool oldest_first_ = false;
    vs::Profile profile_;
    VertexPool& pool_;
    Probes* probes_;
    const vs::Constants* constants_ = nullptr;
    In<Job> in_{*this, "in"};
    Out<Job> out_{*this, "out"};
    Out<Credit> credits_{*this, "credits"};
    In<DrawEnd> draw_end_{*this, "draw_end"};
    In<ConstantsWritten> written_{*this, "constants_written"};
    Out<DrawsDone> draws_done_{*this, "draws_done"};
    uint64_t constants_written_ = 0;
    // Draws not yet left: jobs (known at its DrawEnd) and jobs retired, by draw id.
    struct Progress {
        uint64_t jobs = kNever;
        uint64_t retired = 0;
    };
    std::map<uint32_t, Progress> progress_;
    uint64_t draws_left_ = 0;
    std::vector<Engine> engines_;
    // (engine, context) of the vertices in flight, in entry order: a ring of engines x contexts.
    // The context by its address (the engines' context vectors never change size after
    // construction): the per-cycle retire check and the oldest-first search reach it in one load.
    struct InFlight {
        uint32_t engine = 0;
        Context* ctx = nullptr;
    };
    struct Order {
        std::vector<InFlight> slots;
        size_t head = 0, count = 0;
        bool empty() const { return count == 0; }
        size_t size() const { return count; }
        const InFlight& front() const { return slots[head]; }
        const InFlight& at(size_t k) const {
            const size_t t = head + k;
            return slots[t >= slots.size() ? t - slots.size() : t];
        }
        void pop_front() {
            head = head + 1 == slots.size() ? 0 : head + 1;
            --count;
        }
        void push_back(InFlight v) {
            size_t t = head + count;
            if (t >= slots.size()) t -= slots.size();
            slots[t] = v;
            ++count;
        }
    } order_;
    uint32_t next_engine_ = 0;
    std::map<const vs::CreatedShader*, std::unique_ptr<VertexAluProgram>> programs_;
    std::map<const vs::CreatedShader*, std::unique_ptr<vs::FastShader>> fast_;
    const vs::CreatedShader* last_shader_ = nullptr;
    const VertexAluProgram* last_program_ = nullptr;
    const DrawState* function_draw_ = nullptr;
    std::unique_ptr<DrawFunction> function_;
    int sig_active_ = -1;

    StatGroup stats_;
    CycleAccount acct_;
    Counter &vertices_, &instructions_, &slots_, &vector_, &scalar_, &issue_cycles_, &coissue_cycles_, &engine_cycles_;
    Counter &vertex_cycles_, &max_in_flight_;
    StallReason st_dep_, st_scalar_, st_output_, st_latency_, st_const_, st_starved_;
    // Vertices in flight per engine, integrated over time (vertex_cycles) and at most.
    std::vector<uint32_t> in_flight_;
    Cycle in_flight_since_ = 0;
    void in_flight_change(uint32_t engine, int delta, Cycle now);
    bool draw_in_progress() const;  // a draw has entered and not all its vertices have left
    // Per engine (stats.json counters e<N>_issue_cycles, e<N>_dependency_cycles,
    // e<N>_latency_cycles, e<N>_empty_cycles: they add up to the run's cycles): the cycles it
    // issued, held a vertex with slots left that could not issue (an operand, an earlier write or
    // the scalar pipe), held only vertices with every slot issued, or held none. The unit's stall
    // reasons say what held the ALU as a whole; these show an engine that falls short on its own.
    struct EngineCycles {
        Counter *issue, *dependency, *latency, *empty;
    };
    std::vector<EngineCycles> engine_cycles_of_;
    // Per context class (stats.json counters k<N>_issue_cycles, k<N>_dependency_cycles,
    // k<N>_latency_cycles, N = 1 .. contexts): the same engine cycles summed over the engines and
    // split by how many of the engine's contexts held a vertex. Dependency cycles with every
    // context in use say more contexts could help; with few in use, the ALU is starved instead.
    std::vector<EngineCycles> class_cycles_of_;  // index N - 1; its empty is unused (e<N>_empty)
    // The counts changed at every issue or step, kept here side by side and added to their
    // counters above in finish(): a Counter is a field of a larger object elsewhere on the
    // heap, and a read-modify-write of eight of them a cycle cost about as much as the issue
    // search itself. (Nothing reads these counters before the run ends.)
    struct Tally {
        uint64_t slots = 0, vector = 0, scalar = 0, instructions = 0, issue_cycles = 0, coissue_cycles = 0;
    } tally_;
    struct CyclesTally {
        uint64_t issue = 0, dependency = 0, latency = 0, empty = 0;
    };
    std::vector<CyclesTally> engine_tally_, class_tally_;  // as engine_cycles_of_, class_cycles_of_
    void flush_tallies();  // into the counters (finish)
    std::vector<uint8_t> issued_;  // the last step's issue, per engine
    uint32_t engines_issued_ = 0;  // of them, how many issued
    Cycle engines_since_ = 0;
    // Charges each engine's state since engines_since_. Most steps follow a step where every
    // engine issued, one cycle before: nothing to charge, decided here inline (the call and its
    // frame cost as much as the test).
    void engine_cycles_until(Cycle now) {
        if (now == engines_since_ + 1 && engines_issued_ == p_.engines) {
            engines_since_ = now;
            return;
        }
        engine_cycles_charge(now);
    }
    void engine_cycles_charge(Cycle now);
};

}  // namespace vpsim::sc

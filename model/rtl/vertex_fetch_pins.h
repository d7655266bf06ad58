// The pins of rtl/vertex_fetch.sv (docs/vertex-fetch-rtl.md) as plain C++ values, and the
// interface every implementation of them offers to the cross-check (tb/vf_xcheck.h) and to the
// pipeline (model/sc/rtl_vertex_fetch.h): the built-in Verilated model
// (model/rtl/vertex_fetch_cc.cpp) and a user's design Verilated at run time
// (model/rtl/user_vertex_fetch.cpp). No Verilated header here, and no SystemC.
#pragma once

#include <cstdint>
#include <memory>
#include <string>

namespace vpsim::rtl::vf {

inline constexpr unsigned kMaxElems = 20;   // the contract's MAX_ELEMS: lay_elems is 20 x 32 bits
inline constexpr unsigned kWordBytes = 16;  // memory word
inline constexpr unsigned kRegs = 16;       // v0..v15

struct Inputs {
    bool rst = false;
    bool idx_valid = false;
    uint32_t idx_index = 0;
    bool idx_flush = false;
    uint32_t lay_count = 0;
    uint32_t lay_elems[kMaxElems] = {};
    uint32_t str_base[16] = {};
    uint32_t str_stride[16] = {};
    bool mem_req_ready = false;
    bool mem_resp_valid = false;
    uint32_t mem_resp_data[4] = {};
    bool out_ready = false;
};

struct Outputs {
    bool idx_ready = false;
    bool mem_req_valid = false;
    uint32_t mem_req_addr = 0;
    uint32_t mem_req_words = 0;
    bool out_valid = false;
    uint32_t out_index = 0;
    uint32_t out_loaded = 0;
    uint32_t out_regs[kRegs * 4] = {};  // v_r's x, y, z, w at [4r .. 4r+3]
};

// One instance of a vertex fetch design, used by the thread that made it.
class Pins {
public:
    virtual ~Pins() = default;
    // clk low, every input, one evaluation (the outputs settle). `layout_changed`: lay_*,
    // str_* differ from the last call (the others are copied every cycle).
    virtual void set_inputs(const Inputs& in, bool layout_changed) = 0;
    // The outputs after set_inputs; out_regs only when `regs` (they are wide).
    virtual void outputs(Outputs& out, bool regs) const = 0;
    virtual void clock() = 0;  // the rising edge
    // rst high for two cycles, every other input low.
    virtual void reset() = 0;
    virtual bool broken() const = 0;  // an immediate assertion of the design failed
    virtual void clear_error() = 0;
    virtual bool write_coverage(const std::string&) { return false; }
    // A design Verilated with tracing: from now on every evaluation goes into this VCD file (closed
    // when the instance goes). False when the design was not built with tracing or the file cannot
    // be opened.
    virtual bool trace_open(const std::string&) { return false; }
    // Keep this design's Verilator context current on the calling thread until another is made
    // current, so that each call need not make it current and put the caller's back. A cross-check
    // thread that runs only this design calls it once; in the pipeline, where another Verilated
    // model shares the thread, nobody does. Verilator's setter also writes a process-wide
    // "last context", so two threads switching contexts on every call contend for that one line.
    virtual void make_current() {}
};

// How the built-in design is evaluated: region by region (the input-combinational region when the
// inputs are set, the clocked region on the edge: one region fewer per cycle), or with Verilator's
// eval() twice per cycle (the reference the test compares it with). model/rtl/vertex_fetch_cc.cpp.
enum class Eval { Regions, VerilatorEval };
std::unique_ptr<Pins> builtin_vertex_fetch(Eval how = Eval::Regions);

}  // namespace vpsim::rtl::vf

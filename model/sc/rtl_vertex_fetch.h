// The vertex fetch RTL in the loop (`vpsim run --rtl vertex_fetch`, docs/vertex-fetch-rtl.md, "In
// the loop"): a timing unit in place of the SystemC model VertexFetch, with its ports, that clocks
// an rtl::vf::Pins design (model/rtl/vertex_fetch_pins.h: the built-in rtl/vertex_fetch.sv, or a
// user's) once per pipeline cycle while it holds work. Each vertex job goes in with its draw's
// layout and streams, every memory word the design asks for is a read of the pipeline's memory
// model (one 16-byte read a word) answered with the draw's buffer bytes when that read completes,
// and every vertex that comes out is checked bit for bit against the golden fetch
// (vs::fetch_vertex) before it goes to the vertex ALU.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/rtl/user_rtl.h"
#include "model/rtl/vertex_fetch_pins.h"
#include "model/sc/pipeline.h"
#include "model/sc/unit_registry.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace vpsim::sc::vf {

// A vertex (or a port rule) where the design disagrees with the golden vertex fetch: with a
// user's design a finding (vpsim run exits 1), with the built-in one an internal error.
struct LoopMismatch : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// The layout bus the loop gives a draw's vertices: the elements in the order the SystemC model
// requests them (VertexFetch: stream by stream as Declaration::streams lists them, so both make
// the same requests in the same order), and every element whose register a later event of the
// declaration loads again (an element, or the tessellator in a non-patch draw) with register 31:
// fetched and dropped, so the order does not change the registers. Throws std::invalid_argument
// (naming the element) beyond the contract's 20 elements or 2^20-byte offsets.
std::vector<uint32_t> loop_layout(const decl::Declaration& d);

// The registers an element of the declaration loads (out_loaded).
uint32_t loop_loaded(const decl::Declaration& d);

// The unit type vertex_fetch's variant for a design (sc::UnitType::variants): `make` one instance
// per unit (on the simulation thread), `name` for messages ("rtl/vertex_fetch.sv" or the user's
// files). Each vertex_fetch unit of the topology gets its own instance, on its memory port.
UnitFactory loop_unit(std::function<std::unique_ptr<rtl::vf::Pins>()> make, std::string name);

// The model unit's parameters (unit.param=value, for ParamSet::apply_set or `vpsim run --set`)
// with which the SystemC model VertexFetch has the built-in RTL's timing cycle for cycle: a
// one-word tag (one 16-byte line, no read-ahead), one element issued and one converted per cycle,
// a response register (fill_latency 1), ELEM_DEPTH 64 and RESP_DEPTH 32, and no vertex limit of
// its own (the RTL holds at most 65 issued vertices). docs/vertex-fetch-rtl.md, "In the loop".
const std::vector<std::string>& rtl_timing_params();

// The variant with the built-in rtl/vertex_fetch.sv (plain C++ Verilated model,
// model/rtl/vertex_fetch_cc.cpp); a run takes it with use_rtl (model/sc/rtl_in_loop.h).
UnitFactory builtin_loop_unit();

// The variant with a user's design (`vpsim run --rtl vertex_fetch=FILE.sv`): Verilated now (or
// found in the cache, model/rtl/user_vertex_fetch.h), its ports checked against the contract
// first. Throws rtl::RtlBuildError.
UnitFactory user_loop_unit(const rtl::UserRtlSpec& spec);

}  // namespace vpsim::sc::vf

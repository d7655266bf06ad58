// The command front end: executes the scene's D3D8 commands in order. Function comes from the
// shared command semantics (scene::SceneMachine); timing here:
// * CreateVertexShader drives the declaration tokens into the declaration decoder's pins
//   (model/sc/decl_decoder_pins.h: the SystemC unit of model/sc/decl_decoder_unit.h, or with
//   `vpsim run --rtl decl_decoder` the Verilated RTL; clocked only while it decodes) one token
//   per cycle, and waits for its END (or ERROR) event; the events are checked against the
//   golden decoder's. The first decode begins with a reset of the decoder (no cycles).
// * SetVertexShader / SetVertexShaderConstant send their constant vectors as one batch to the
//   constant memory loader; a draw goes to the index fetch with the number of constant vectors
//   issued before it (its epoch).
// * A draw first sends the driver's constant writes it carries (scene::DrawSetup::constant_writes:
//   a fixed-function program's constants, or the application's values restored after one) as one
//   batch to the loader, then goes to the tessellator.
// * Every other command costs `command_cycles`.
// Ports: `constants` batches to the constant loader; `draws` draws to the tessellator. The
// front end owns the draws it sends (they live as long as the pipeline).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/decl/decl_decoder_timing.h"
#include "model/sc/decl_decoder_pins.h"
#include "model/sc/pipeline_types.h"

#include <functional>
#include <map>
#include <optional>

namespace vpsim::sc {

struct CommandFrontEndParams {
    uint32_t command_cycles = 1;  // cycles per state command

    static constexpr const char* kUnit = "front_end";
    static const ParamBindings<CommandFrontEndParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static CommandFrontEndParams from(const ParamSet& p);
};

class CommandFrontEnd : public TimedUnit {
public:
    // `sync(now)` brings the SystemC kernel's time to cycle `now` (the dispatcher's quantum
    // keeper), so the declaration decoder can be clocked in kernel time. `decoder` is bound to
    // `pins`, which the front end drives (clock and reset included).
    CommandFrontEnd(const sc_core::sc_module_name& n, const CommandFrontEndParams& p, scene::SceneMachine& machine,
                    DeclDecoderPins& pins, DeclDecoderBlock& decoder, std::function<void(Cycle)> sync,
                    Probes* probes);

    // The modelled address of each scene buffer (for the fetch cache).
    void set_buffer_addresses(std::map<const uint8_t*, uint64_t> a) { address_ = std::move(a); }

    Cycle step(Cycle now) override;
    void finish(Cycle end) override;
    bool busy_with_work() const override { return next_ < machine_.scene().commands.size() || decoding_; }
    const StatGroup& stats() const override { return stats_; }
    size_t draws_issued() const { return draws_.size(); }
    const std::vector<std::unique_ptr<DrawState>>& draws() const { return draws_; }

private:
    Cycle decode_cycle(Cycle now);  // one clock of the declaration decoder
    void clock_decoder();           // one rising and falling edge, in delta cycles
    Cycle execute(Cycle now, const scene::Command& c);
    void queue_constants(std::vector<scene::ConstantWrite> w, const char* what);
    bool push_constants(Cycle now);

    CommandFrontEndParams p_;
    scene::SceneMachine& machine_;
    std::vector<std::unique_ptr<DrawState>> draws_;  // every draw sent, in order
    DeclDecoderPins& pins_;
    DeclDecoderBlock& decoder_;
    std::function<void(Cycle)> sync_;
    Probes* probes_;
    Out<ConstantBatch> constants_{*this, "constants"};
    Out<const DrawState*> draws_out_{*this, "draws"};
    std::map<const uint8_t*, uint64_t> address_;

    size_t next_ = 0;             // next command
    Cycle cmd_start_ = 0;
    bool started_ = false;        // the command at next_ has begun (function done)
    std::unique_ptr<DrawState> pending_draw_;
    std::optional<ConstantBatch> pending_batch_;
    uint64_t const_vectors_ = 0;  // constant vectors issued so far
    vs::Constants constants_now_; // constant memory in command order (what the next draw sees)
    bool decoder_reset_ = false;  // the decoder has been reset (at the first decode)
    bool decoding_ = false;
    bool final_seen_ = false;  // END or ERROR is on the decoder's output: one more clock takes it
    std::string cmd_pointer_;
    std::vector<uint32_t> tokens_;
    size_t token_pos_ = 0;
    std::vector<decl::Event> events_, expected_;
    // The cycle contract's model (model/decl/decl_decoder_timing.h) in lockstep with the pins: the
    // decoder behind them (the SystemC unit, the RTL, a user's RTL) must match it cycle for cycle.
    std::optional<decl::DeclDecoderTiming> beside_;
    uint64_t decode_clocks_ = 0;  // clocks of the current decode
    void check_beside(bool in_valid, uint32_t token, bool last);
    uint64_t decoder_clocks_ = 0;
    int track_ = -1;

    StatGroup stats_;
    CycleAccount acct_;
    Counter &commands_, &draw_count_, &decl_tokens_;
    StallReason stall_draw_q_, stall_const_q_;
};

}  // namespace vpsim::sc

// The command front end: executes the scene's D3D8 commands in order. Function comes from the
// shared command semantics (scene::SceneMachine); timing here:
// * CreateVertexShader sends the declaration to the declaration decoder's slot (port
//   `declarations`, model/sc/decl_decoder_slot.h: the decoder behind it takes one token per
//   cycle) and waits, busy, for its events (port `decoded`); they are checked against the
//   golden decoder's.
// * SetVertexShader / SetVertexShaderConstant send their constant vectors as one batch to the
//   constant memory loader; a draw goes to the index fetch with the number of constant vectors
//   issued before it (its epoch).
// * A draw first sends the driver's constant writes it carries (scene::DrawSetup::constant_writes:
//   a fixed-function program's constants, or the application's values restored after one) as one
//   batch to the loader, then goes to the tessellator.
// * Every other command costs `command_cycles`.
// Ports: `constants` batches to the constant loader; `draws` draws to the tessellator;
// `declarations` / `decoded` to and from the declaration decoder. The front end owns the draws it
// sends (they live as long as the pipeline; retire() shrinks each once the output is done with it).
#pragma once

#include "model/common/params.h"
#include "model/common/stats.h"
#include "model/sc/decl_decoder_slot.h"
#include "model/sc/pipeline_types.h"
#include "model/sc/unit_registry.h"

#include <functional>
#include <map>
#include <optional>
#include <utility>
#include <vector>

namespace vpsim::sc {

struct CommandFrontEndParams {
    uint32_t command_cycles = 1;  // cycles per state command

    static constexpr const char* kUnit = "front_end";
    static const ParamBindings<CommandFrontEndParams>& bindings();  // each parameter, declared once
    static ParamTable table();
    static CommandFrontEndParams from(const ParamSet& p);
};

// What the front end reads of other units (model/sc/unit_params.h): the declaration decoder's
// longest declaration (the option it sends with each declaration and decodes the golden
// reference with, which the decoder's events must match).
struct CommandFrontEndNeeds {
    uint32_t decl_max_length = 0;
    static const NeedBindings<CommandFrontEndNeeds>& bindings();
};

class CommandFrontEnd : public TimedUnit {
public:
    // `decoder`: the declaration decoder's parameters (the golden decoder checks its events
    // with the same options).
    CommandFrontEnd(const sc_core::sc_module_name& n, const CommandFrontEndParams& p, scene::SceneMachine& machine,
                    const DeclDecoderParams& decoder, Probes* probes);

    Cycle step(Cycle now) override;
    void finish(Cycle end) override;
    bool busy_with_work() const override { return next_ < machine_.scene().commands.size() || decoding_; }
    const StatGroup& stats() const override { return stats_; }
    // Draw `id` has left the output: every unit is done with it. What only its shading read goes
    // (the constant memory it sees, the driver's writes, the fixed-function state and program, a
    // tessellated draw's generated vertices); the DrawState stays, small, at the same address (units
    // compare draw pointers). A software-processed draw keeps its SoftwareDraw: its shader is the
    // draw's shader, and units key their program caches by shader address.
    void retire(uint32_t id);
    void draw_retired(uint32_t id) override { retire(id); }

private:
    Cycle decoded(Cycle now);  // the decoder's events have come back
    Cycle execute(Cycle now, const scene::Command& c);
    void queue_constants(std::vector<scene::ConstantWrite> w, const char* what);
    bool push_constants(Cycle now);

    CommandFrontEndParams p_;
    scene::SceneMachine& machine_;
    std::vector<std::unique_ptr<DrawState>> draws_;  // every draw sent, in order
    DeclDecoderParams decoder_;
    Probes* probes_;
    Out<ConstantBatch> constants_{*this, "constants"};
    Out<const DrawState*> draws_out_{*this, "draws"};
    Out<DeclRequest> declarations_{*this, "declarations"};
    In<DeclResult> decoded_{*this, "decoded"};
    // Each scene buffer's bytes -> its modelled address, sorted by the bytes' address (a map per
    // run cost a visible share of a sampled run's many short ones).
    std::vector<std::pair<const uint8_t*, uint64_t>> address_;
    const uint64_t* address_of(const uint8_t* data) const;  // null: not a scene buffer's bytes

    size_t next_ = 0;             // next command
    Cycle cmd_start_ = 0;
    bool started_ = false;        // the command at next_ has begun (function done)
    std::unique_ptr<DrawState> pending_draw_;
    std::optional<ConstantBatch> pending_batch_;
    uint64_t const_vectors_ = 0;  // constant vectors issued so far
    vs::Constants constants_now_; // constant memory in command order (what the next draw sees)
    bool decoding_ = false;  // a declaration is with the decoder
    std::string cmd_pointer_;
    std::vector<decl::Event> expected_;
    std::vector<uint32_t> tokens_;  // the declaration with the decoder (written out on a mismatch)
    int track_ = -1;

    StatGroup stats_;
    CycleAccount acct_;
    Counter &commands_, &draw_count_, &decl_tokens_;
    StallReason stall_draw_q_, stall_const_q_;
};

}  // namespace vpsim::sc

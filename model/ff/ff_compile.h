// Fixed function as a vertex program: the fixed-function state of a draw compiled to a vs.1.1
// program and its constant layout, as GeForce3-class drivers ran the fixed-function pipeline on
// the programmable vertex engine (docs/fixed-function.md says what this models and what a chip
// with separate fixed-function hardware would change).
#pragma once

#include "model/ff/ff_state.h"
#include "model/vs/vs_load.h"

#include <string>
#include <utility>
#include <vector>

namespace vpsim::ff {

struct FfProgram {
    std::string assembly;     // vs.1.1 source, one comment per term of the equations
    vs::LoadedShader shader;  // the assembled program
    // The constants the program reads: register -> value (the driver writes them before the draw).
    std::vector<std::pair<uint32_t, Vec4>> constants;
    std::vector<std::string> constant_notes;  // what each constant register holds (same order)
    // D3DVSDE register -> the program's input register v# (-1: not read). Identity where it can
    // be; NORMAL2 (16), which vs.1.1 cannot name, goes to a free register.
    std::array<int8_t, kNumDe> input_map{};
    uint32_t instructions = 0;  // instruction count
    uint32_t slots = 0;         // instruction slots (vs.1.1 costs)
    uint32_t words = 0;         // instruction words after packing (ff_schedule.h): what program memory holds
    // The outputs the program writes (vs::kOut* bits, vs_validate.h): oD1 only when writes_specular(),
    // oFog only with FOGENABLE TRUE. A comparison with process_vertex() skips an output not written.
    uint32_t outputs_written = 0;
};

// The profile a fixed-function program is checked with: `base` without vs.1.1's 128-slot limit
// (the driver's program is bounded by Caps::program_words instead).
vs::Profile ff_profile(const vs::Profile& base);

// Throws FfError when the state cannot be drawn (check_drawable's rules) or the program does not
// fit the device's program memory (Caps::program_words) or `const_count` constant registers
// (naming the limit). `outputs` is the vertex engine's output start values (the profile the
// program runs with): with D3D8's, oD0.w starts at 1 and a diffuse alpha of 1 needs no write.
FfProgram compile(const FfState& state, const FfInputs& inputs, const Caps& caps, uint32_t const_count,
                  vs::Profile::OutputDefaults outputs = vs::Profile::OutputDefaults::D3D8);

// The program for printing (`vpsim ff-program`): the commented assembly, the constant layout
// (register, value, what it holds), the input registers read, then "; N instructions, M slots".
std::string format_program(const FfProgram& program);

}  // namespace vpsim::ff

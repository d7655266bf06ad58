// The fast functional path of the vertex shader: a validated vs.1.x program compiled once into
// pre-decoded micro-operations that run over batches of vertices held in structure-of-arrays
// form (one float array per register component), with the vertex fetch fused in front.
//
// It is bit-identical to the reference interpreter (execute_reference, vs_exec.h): the same
// operations in the same order, every intermediate rounded to float (the project builds with
// -ffp-contract=off, so nothing is fused into an FMA), NaN results of arithmetic canonical, the
// transcendental and scalar ops through the same ops:: functions. tests/test_vs_fast.cpp checks
// it; docs/fast-path.md explains how, and how fast it is (`vpsim bench exec`).
//
// Typical use:
//     const FastShader fs = compile_fast(program, profile);       // once per shader
//     run_fast_fetch(fs, decl, streams, constants, first, count, outputs);   // per draw
// A FastShader is immutable after compile_fast; several threads may run it at once (each call
// has its own working storage). Every entry point runs on the calling thread only.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/vs/vs_exec.h"
#include "model/vs/vs_fetch.h"
#include "model/vs/vs_isa.h"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::vs {

// Vertices processed together (the length of every SoA array).
inline constexpr size_t kFastBatch = 256;

// The instruction set of the arithmetic kernels. Both give the same bits (tests/test_vs_fast.cpp
// checks each); AVX2 (without FMA) processes 8 vertices per instruction instead of 4. The default
// is Avx2 when the CPU has it, else Baseline; the environment variable VPSIM_FAST_ISA=baseline
// forces Baseline at start-up. The setting is process-wide and read at the start of each call.
enum class FastIsa : uint8_t { Baseline, Avx2 };
FastIsa fast_isa();
bool set_fast_isa(FastIsa isa);  // false (and no change) if the CPU lacks it
const char* fast_isa_name(FastIsa isa);  // "baseline (sse2)", "avx2"

// ---- The packed output layout ----
// The output registers in packed order. A shader's packed record holds, in this order, only the
// registers it writes (any component): 4 floats each, 1 float for oFog and oPts. Components of a
// written register that the shader leaves alone hold their default (profile.outputs). Values are
// as they leave the vertex stage, exactly as in VertexOutputs: oD0/oD1 saturated, oFog clamped.
enum FastOutReg : uint8_t {
    FOUT_POS = 0, FOUT_D0 = 1, FOUT_D1 = 2, FOUT_T0 = 3,  // FOUT_T0 + n = oTn (n = 0..7)
    FOUT_FOG = 11, FOUT_PTS = 12,
};
inline constexpr unsigned kNumFastOutRegs = 13;
inline constexpr unsigned fast_out_width(unsigned reg) { return reg >= FOUT_FOG ? 1u : 4u; }
const char* fast_out_name(unsigned reg);  // "oPos", "oD0", "oT3", "oFog" ...

// ---- The compiled shader ----
// Made by compile_fast only; the fields are public for statistics, describe() and tests.
struct FastShader {
    // Operand of a micro-operation: a slot (an SoA array of the batch), the same negated (sign
    // bit flipped), or a uniform (one float for every vertex: a constant register component,
    // negated or not, or an immediate such as the 1.0 of lit or an output default).
    enum OpndKind : uint8_t { OPND_SLOT = 0, OPND_NEG = 1, OPND_UNI = 2 };
    struct Opnd {
        OpndKind kind = OPND_UNI;
        uint16_t index = 0;  // slot or uniform index
    };
    struct Uniform {
        bool immediate = false;
        uint32_t bits = 0;   // immediate: the float's bits (negation already applied)
        uint32_t reg = 0;    // constant register
        uint8_t comp = 0;    // its component
        bool negate = false;
    };
    enum Code : uint8_t {
        ADD, SUB, MUL, MAD, MIN, MAX, SLT, SGE,  // componentwise, one component per micro-op
        DP3, DP4,                                // s[0..2|3] . s[4..6|7], left to right
        MOVE,                                    // materialise an operand into a slot
        RCP, RSQ, EXP, LOG, FRC,                 // per vertex through ops::
        EXPP, LOGP,                              // per vertex, up to 4 destinations
        LIT_Y, LIT_Z,                            // lit's y (a select) and z (ops::lit per vertex)
        SAT,                                     // oD0/oD1/oFog saturation (as the interpreter)
        A0,                                      // a0.x = ops::a0_from(s[0]) into the int slot
        A0_ZERO,                                 // a0.x = 0 (a relative read before any a0 write)
        GATHER,                                  // slot = c[a0.x + reg].comp, 0 outside 0..count-1
        MATVEC3, MATVEC4,                        // comp (2..4) DP3/DP4 of one source s[0..2|3] with
                                                 // uniform rows uniforms[reg + 4*r ..]: dst[r], r < comp
    };
    static constexpr uint16_t kNoSlot = 0xFFFF;
    struct MicroOp {
        Code code = MOVE;
        std::array<uint16_t, 4> dst{kNoSlot, kNoSlot, kNoSlot, kNoSlot};  // dst[0]; EXPP/LOGP all 4
        std::array<Opnd, 8> src{};
        uint32_t reg = 0;  // GATHER: the register number added to a0.x
        uint8_t comp = 0;  // GATHER: the component
    };

    Profile profile;
    std::vector<MicroOp> ops;        // in execution order
    std::vector<Uniform> uniforms;
    uint32_t num_slots = 0;          // SoA arrays of kFastBatch floats
    bool uses_a0 = false;

    // Inputs: the slot of each input component the program needs (kNoSlot: not read).
    std::array<std::array<uint16_t, 4>, kNumInputs> input_slot{};
    uint32_t input_reads = 0;        // bit r: some component of v[r] is needed

    // Outputs: for each written register, the slot holding each component's final value.
    uint32_t outputs_written = 0;    // bit FastOutReg
    std::array<std::array<uint16_t, 4>, kNumFastOutRegs> output_slot{};
    // The packed record: floats per vertex, and each register's offset in it (-1: absent).
    uint32_t packed_stride = 0;
    std::array<int16_t, kNumFastOutRegs> packed_offset{};

    size_t instructions = 0;         // of the source program (statistics)
};

// Compiles a program that passed validate() (vs_validate.h) under `profile`. Throws
// std::invalid_argument on what execute_reference would reject (an unvalidated program with a
// register out of range or in a place it cannot stand). Dead components are not computed,
// macros are expanded into dot products, mov is a renaming.
FastShader compile_fast(const Program& program, const Profile& profile = Profile::d3d8());

// A listing of the micro-operations (for docs and debugging).
std::string describe(const FastShader& fs);

// Shades `n` vertices from given inputs: inputs[16*i + r] is v[r] of vertex i. out[i] is what
// execute_reference(program, profile, inputs of vertex i, constants) returns, bit for bit.
// `constants`: as for execute_reference (registers past its end or past profile.const_count read 0).
void run_fast(const FastShader& fs, const Constants& constants, const Vec4* inputs, VertexOutputs* out, size_t n);

// Fetch + shade of vertices first .. first+count-1 (the vertex index of fetch_vertex): the
// program's input registers are converted from the bound streams straight into the SoA
// registers, exactly as fetch_vertex expands them. out[i] is vertex first+i.
// Errors as fetch_vertex: when a vertex cannot be fetched, the vertices before it are shaded and
// written, then the FetchError that fetch_vertex throws for it is thrown.
void run_fast_fetch(const FastShader& fs, const decl::Declaration& decl, const Streams& streams,
                    const Constants& constants, uint32_t first, uint32_t count, VertexOutputs* out);

// The same into the packed layout: `out` holds count * fs.packed_stride floats; vertex i's record
// starts at out + i * fs.packed_stride. Any float alignment works; when `out` is 16-byte aligned,
// the record is a multiple of 4 floats (no oFog/oPts) and the output is 4 MB or more, it is written
// with non-temporal stores (straight to memory, fenced before the call returns).
// This is the leanest form (the bench measures it); run_fast_fetch writes whole VertexOutputs.
void run_fast_fetch_packed(const FastShader& fs, const decl::Declaration& decl, const Streams& streams,
                           const Constants& constants, uint32_t first, uint32_t count, float* out);

// One vertex's outputs as a packed record (fs.packed_stride floats), e.g. to compare the
// interpreter with run_fast_fetch_packed.
void pack_outputs(const FastShader& fs, const VertexOutputs& v, float* out);

}  // namespace vpsim::vs

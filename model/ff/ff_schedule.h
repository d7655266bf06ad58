// The driver's last step for a fixed-function program: packing its instructions into NV20-style
// instruction words. Each word of the vertex engine's program memory holds one vector operation
// (mov mul add mad dp3 dp4 dst min max slt sge, and one row of a matrix macro) and one scalar
// operation (rcp rsq expp logp lit); a word reads at most one input register and one constant
// register (docs/fixed-function.md, "Instruction words").
//
// `pack` orders the operations so that each scalar operation stands right after the vector
// operation it shares a word with (the timing model's co-issue then finds the pair: vs.1.1
// bytecode has no way to say "paired"), and counts the words. It is a list scheduler in program
// order: the first operation not yet placed takes a word, and the first later operation for the
// other unit that depends on nothing unplaced joins it when the read ports allow.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::ff {

// One operation as the compiler writes it: "dp3", "r8.x", {"r1", "c4"}.
struct AsmOp {
    std::string name, dst;
    std::vector<std::string> src;
};

struct Packing {
    std::vector<size_t> order;  // the operations' indices in their new order
    std::vector<bool> joins;    // per position of `order`: shares the word of the operation before it
    uint32_t words = 0;         // instruction words (a matrix macro takes one word per row)
    uint32_t pairs = 0;         // words that hold a vector and a scalar operation
};

Packing pack(const std::vector<AsmOp>& ops);

// Whether an operation goes to the scalar unit (rcp rsq expp logp lit).
bool scalar_unit_op(const std::string& name);

}  // namespace vpsim::ff

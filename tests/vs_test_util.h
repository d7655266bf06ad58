// Building vs.1.x programs by hand in tests, without the assembler.
#pragma once

#include "model/vs/vs_isa.h"

#include <initializer_list>

namespace vpsim::vs::test {

inline Dst dst(RegType t, uint32_t n, uint32_t mask = 0xF) { return Dst{t, n, mask}; }
inline Src src(RegType t, uint32_t n, uint32_t swz = kSwizzleIdentity, bool neg = false, bool rel = false) {
    Src s;
    s.type = t;
    s.num = n;
    s.swizzle = swz;
    s.negate = neg;
    s.relative = rel;
    return s;
}
inline Instruction ins(uint32_t op, Dst d, std::initializer_list<Src> srcs) {
    Instruction i;
    i.opcode = op;
    i.dst = d;
    for (const Src& s : srcs) i.src[size_t(i.nsrc++)] = s;
    return i;
}
// A program with token indices filled in by encoding and decoding it.
inline Program program(std::initializer_list<Instruction> code, uint32_t version = kVersion11) {
    Program p;
    p.version = version;
    p.code = code;
    return decode_bytecode(encode_program(p));
}
inline const Instruction kWritePos = ins(OP_MOV, dst(REG_RASTOUT, RAST_POS), {src(REG_INPUT, 0)});

}  // namespace vpsim::vs::test

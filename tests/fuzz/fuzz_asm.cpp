// The vs.1.x assembler (model/vs/vs_asm.h): any text either assembles or throws an AsmError
// located in it; what assembles gives canonical text -> tokens -> text -> tokens identity
// (disassemble(assemble(x)) re-assembles to the same bytecode and defs, and prints the same).
//
// Input: the text. Texts with directives go through the C preprocessor (mcpp) as the CLI does;
// a text that names `include` is skipped, so that an input cannot make the harness read files.
#include "fuzz_util.h"

#include "model/vs/vs_asm.h"

#include <algorithm>

using namespace vpsim;
using namespace vpsim::vs;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size > 16 * 1024) return fuzz::kReject;
    const std::string text(reinterpret_cast<const char*>(data), size);
    if (text.find("include") != std::string::npos) return fuzz::kReject;
    AsmResult a;
    try {
        a = assemble(text, "in.vsh");
    } catch (const AsmError& e) {
        FUZZ_CHECK(e.line >= 1 && e.column >= 1, "location %d:%d", e.line, e.column);
        FUZZ_CHECK(!e.message.empty(), "empty message");
        return 0;
    }
    const std::string canon = disassemble(a.program, a.defs);
    AsmResult b;
    try {
        b = assemble(canon, "canon.vsh");
    } catch (const AsmError& e) {
        FUZZ_CHECK(false, "canonical text does not assemble: %s\n%s", e.what(), canon.c_str());
    }
    FUZZ_CHECK(b.bytecode == a.bytecode, "text -> tokens -> text -> tokens changes the tokens:\n%s", canon.c_str());
    FUZZ_CHECK(b.const_tokens == a.const_tokens, "def constants change:\n%s", canon.c_str());
    FUZZ_CHECK(disassemble(b.program, b.defs) == canon, "canonical text is not stable:\n%s", canon.c_str());
    FUZZ_CHECK(a.program.tokens == a.bytecode, "AsmResult::program.tokens differs from bytecode");
    return 0;
}

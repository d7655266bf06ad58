// The C preprocessor pass over vs.1.x assembly (docs/spec/vs-isa.md, "Assembly syntax"):
// #define (object- and function-like), #undef, #include "..." (relative to the including file,
// then the -I directories), #if/#ifdef/#ifndef/#elif/#else/#endif, #error, -D NAME[=VALUE].
//
// It is mcpp (Debian's libmcpp-dev), run in-process in its assembler-source mode (a `;` comment
// such as `; don't` is not an unterminated character constant there); docs/vs-isa.md says why
// mcpp and not `cpp` or Boost.Wave. mcpp keeps global state, so calls are serialised by a mutex.
//
// The result is the expanded text without line markers plus, for every one of its lines, the
// file and line it came from, so that every later diagnostic names the original place through
// includes and macro expansions.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace vpsim::vs {

struct PreprocOptions {
    std::vector<std::string> defines;       // "NAME" or "NAME=VALUE" (-D)
    std::vector<std::string> include_dirs;  // searched after the including file's directory (-I)
    bool enabled = true;                    // false: never run (the text is used as it is)
    bool empty() const { return defines.empty() && include_dirs.empty(); }
};

// Where one line of preprocessed text came from.
struct SourceLine {
    std::string file;  // as the user named it (the main file) or as found (an included file)
    int line = 0;      // 1-based
};

struct PreprocWarning {
    SourceLine where;
    std::string message;  // "preprocessor: ..."
};

struct Preprocessed {
    std::string text;               // the expanded text, one output line per entry of `lines`
    std::vector<SourceLine> lines;  // lines[i] = origin of line i + 1 of `text`
    std::vector<PreprocWarning> warnings;  // the preprocessor's warnings
};

// True when the text has a preprocessor directive (a line whose first non-blank is '#'). The
// assembler runs the preprocessor only then, or when -D / -I options are given.
bool has_directives(std::string_view text);

// Preprocesses `text`, named `name` in diagnostics; `path` is the file it was read from ("" for
// none, e.g. standard input or a scene's inline text: then #include "..." is looked up in
// `base_dir` first). Throws AsmError (vs_asm.h) at "file:line:1" of the first error, naming the
// include chain.
Preprocessed preprocess(std::string_view text, std::string_view name, const std::string& path,
                        const std::string& base_dir, const PreprocOptions& options);

}  // namespace vpsim::vs

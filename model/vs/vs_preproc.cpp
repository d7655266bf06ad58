// The preprocessor pass: mcpp in-process (see vs_preproc.h).
#include "model/vs/vs_preproc.h"

#include "model/vs/vs_asm.h"

extern "C" {
#include <mcpp_lib.h>
}

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <regex>
#include <stdexcept>

namespace vpsim::vs {

namespace fs = std::filesystem;

bool has_directives(std::string_view text) {
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && (text[i] == ' ' || text[i] == '\t' || text[i] == '\r')) ++i;
        if (i < text.size() && text[i] == '#') return true;
        const size_t nl = text.find('\n', i);
        if (nl == std::string_view::npos) break;
        i = nl + 1;
    }
    return false;
}

namespace {

std::mutex mcpp_mutex;  // mcpp keeps its state in globals

// A temporary file holding the text, removed when this goes out of scope.
class TempSource {
public:
    explicit TempSource(std::string_view text) {
        std::string pattern = (fs::temp_directory_path() / "vpsim-pp-XXXXXX").string();
        const int fd = mkstemp(pattern.data());
        if (fd < 0) throw std::runtime_error("preprocessor: cannot create a temporary file in " + fs::temp_directory_path().string());
        path_ = pattern;
        size_t done = 0;
        while (done < text.size()) {
            const ssize_t n = ::write(fd, text.data() + done, text.size() - done);
            if (n <= 0) {
                ::close(fd);
                std::remove(path_.c_str());
                throw std::runtime_error("preprocessor: cannot write the temporary file " + path_);
            }
            done += size_t(n);
        }
        ::close(fd);
    }
    ~TempSource() { std::remove(path_.c_str()); }
    TempSource(const TempSource&) = delete;
    TempSource& operator=(const TempSource&) = delete;
    const std::string& path() const { return path_; }

private:
    std::string path_;
};

struct McppOutput {
    int status = 0;
    std::string out, err;
};

McppOutput run_mcpp(std::vector<std::string> args) {
    std::lock_guard<std::mutex> lock(mcpp_mutex);
    std::vector<char*> argv;
    for (std::string& a : args) argv.push_back(a.data());
    argv.push_back(nullptr);
    mcpp_use_mem_buffers(1);  // also empties the buffers of the previous run
    McppOutput r;
    r.status = mcpp_lib_main(int(args.size()), argv.data());
    if (const char* o = mcpp_get_mem_buffer(OUT)) r.out = o;
    if (const char* e = mcpp_get_mem_buffer(ERR)) r.err = e;
    // (Buffers stay in memory mode: mcpp_use_mem_buffers(0) then (1) again frees a buffer twice.)
    return r;
}

// How a file mcpp names is shown: the main file by the caller's name, an included file relative
// to the working directory when it lies below it, else as an absolute path.
std::string shown_path(const fs::path& resolved) {
    std::error_code ec;
    const fs::path rel = fs::proximate(resolved, ec);
    if (!ec && !rel.empty() && *rel.begin() != "..") return rel.generic_string();
    return resolved.lexically_normal().generic_string();
}

}  // namespace

Preprocessed preprocess(std::string_view text, std::string_view name, const std::string& path,
                        const std::string& base_dir, const PreprocOptions& options) {
    const TempSource src(text);
    const std::string main_name(name);
    std::error_code ec;
    // #include "..." in the main text: its own directory first (the temporary file stands in for it).
    fs::path main_dir = !path.empty() && path != "-" ? fs::absolute(fs::path(path), ec).parent_path()
                                                     : fs::absolute(fs::path(base_dir.empty() ? "." : base_dir), ec);
    // -a: assembler source (a lone apostrophe is no character constant); -k: keep horizontal
    // white space (columns stay where no macro expands); -I-: no system include directories.
    std::vector<std::string> args{"mcpp", "-a", "-k", "-I-", "-I", main_dir.lexically_normal().string()};
    for (const std::string& d : options.include_dirs) {
        args.push_back("-I");
        args.push_back(fs::absolute(fs::path(d), ec).lexically_normal().string());
    }
    for (const std::string& d : options.defines) {
        args.push_back("-D");
        args.push_back(d);
    }
    args.push_back(src.path());
    const McppOutput m = run_mcpp(args);

    // Names in mcpp's messages: the temporary file is the main file; others are full paths.
    auto display = [&](const std::string& f) {
        if (f == src.path()) return main_name;
        return shown_path(fs::path(f));
    };

    Preprocessed r;
    // Diagnostics: "FILE:LINE: error: MESSAGE", then the source line and "from FILE: LINE: ..." lines.
    static const std::regex diag(R"(^\s*(.+?):(\d+): (fatal error|error|warning): (.*)$)");
    static const std::regex from(R"(^\s*from (.+?): (\d+):)");
    struct Msg {
        std::string file;
        int line;
        bool error;
        std::string text;
        std::vector<std::string> chain;
    };
    std::vector<Msg> msgs;
    size_t start = 0;
    while (start < m.err.size()) {
        size_t nl = m.err.find('\n', start);
        if (nl == std::string::npos) nl = m.err.size();
        const std::string line = m.err.substr(start, nl - start);
        start = nl + 1;
        std::smatch g;
        if (std::regex_match(line, g, diag)) {
            msgs.push_back({display(g[1]), std::atoi(g[2].str().c_str()), g[3] != "warning", g[4], {}});
        } else if (std::regex_search(line, g, from) && !msgs.empty()) {
            msgs.back().chain.push_back(display(g[1]) + ":" + g[2].str());
        }
    }
    for (const Msg& x : msgs) {
        // Noise for assembly: the locale's encoding, and the apostrophe of a `; don't` comment.
        if (!x.error && (x.text.rfind("Unknown encoding", 0) == 0 || x.text.rfind("Unterminated character constant", 0) == 0))
            continue;
        std::string what = x.text;
        if (!x.chain.empty()) {
            what += " (included from ";
            for (size_t i = 0; i < x.chain.size(); ++i) what += (i ? ", included from " : "") + x.chain[i];
            what += ")";
        }
        if (x.error) throw AsmError(x.file, x.line, 1, "preprocessor: " + what);
        r.warnings.push_back({{x.file, x.line}, "preprocessor: " + what});
    }
    if (m.status != 0)
        throw AsmError(main_name, 1, 1, "preprocessor: failed (status " + std::to_string(m.status) + ")" +
                                            (m.err.empty() ? "" : ": " + m.err));

    // The output, with its `#line N "FILE"` markers turned into the per-line origins. A marker's
    // FILE is absolute, or relative to the directory of the file that included it.
    struct Open {
        std::string marker;  // the name as the markers spell it
        fs::path resolved;
        std::string shown;
    };
    std::vector<Open> stack;
    std::string cur_file = main_name;
    int cur_line = 1;
    static const std::regex marker(R"re(^#line (\d+) "(.*)"\s*$)re");
    start = 0;
    while (start < m.out.size()) {
        size_t nl = m.out.find('\n', start);
        if (nl == std::string::npos) nl = m.out.size();
        const std::string line = m.out.substr(start, nl - start);
        start = nl + 1;
        std::smatch g;
        if (line.rfind("#line ", 0) == 0 && std::regex_match(line, g, marker)) {
            const std::string f = g[2];
            cur_line = std::atoi(g[1].str().c_str());
            size_t k = stack.size();
            while (k > 0 && stack[k - 1].marker != f) --k;
            if (k > 0) {
                stack.resize(k);  // back in an open file
            } else {
                Open o;
                o.marker = f;
                if (f == src.path()) {
                    o.resolved = f;
                    o.shown = main_name;
                } else {
                    const fs::path p(f);
                    const fs::path dir = stack.empty() || stack.back().marker == src.path() ? main_dir
                                                                                            : stack.back().resolved.parent_path();
                    o.resolved = (p.is_absolute() ? p : dir / p).lexically_normal();
                    o.shown = shown_path(o.resolved);
                }
                stack.push_back(o);
            }
            cur_file = stack.back().shown;
            continue;
        }
        r.text += line;
        r.text += '\n';
        r.lines.push_back({cur_file, cur_line});
        ++cur_line;
    }
    return r;
}

}  // namespace vpsim::vs

// Seed inputs for the harnesses from the project's examples (scripts/fuzz.sh seeds): each
// command reads one example file and writes one input in the harness's format.
//   seed_tool decl FILE OUT      declaration (any form load_tokens reads) -> fuzz_decl_tokens input
//   seed_tool bytecode FILE OUT  shader (.vsh/.bin/.hex) -> fuzz_bytecode input
//   seed_tool asm FILE OUT       shader source, preprocessed when it has directives -> fuzz_asm input
//   seed_tool scene FILE OUT     scene JSON with its files inlined (functions as tokens, buffers
//                                as bytes, declarations as tokens) -> fuzz_scene input
// Exit status 1 (and a message) when the file cannot be used.
#include "model/decl/decl_io.h"
#include "model/vs/vs_load.h"
#include "model/vs/vs_preproc.h"
#include "model/common/file_util.h"

#include <nlohmann/json.hpp>

#include <cstdio>
#include <fstream>
#include <iostream>
#include <string>

using namespace vpsim;
using json = nlohmann::json;

namespace {

void write(const std::string& path, const std::string& bytes) {
    std::ofstream f(path, std::ios::binary | std::ios::trunc);
    f.write(bytes.data(), std::streamsize(bytes.size()));
    if (!f) throw std::runtime_error(path + ": cannot write");
}

std::string words(const std::vector<uint32_t>& t, uint8_t prefix) {
    std::string s(1, char(prefix));
    for (uint32_t w : t)
        for (int b = 0; b < 4; ++b) s += char(w >> (8 * b));
    return s;
}

std::string dir_of(const std::string& p) {
    const size_t slash = p.rfind('/');
    return slash == std::string::npos ? "." : p.substr(0, slash);
}

json inline_files(const json& j, const std::string& dir, const std::string& key = "") {
    if (j.is_object()) {
        json out = json::object();
        for (auto it = j.begin(); it != j.end(); ++it) {
            const std::string& k = it.key();
            const json& v = it.value();
            if (k == "function" && v.is_string()) {
                out[k] = json{{"tokens", vs::load_shader(dir + "/" + v.get<std::string>()).bytecode}};
            } else if (k == "declaration" && v.is_string()) {
                out[k] = json{{"tokens", decl::load_tokens(dir + "/" + v.get<std::string>())}};
            } else if (k == "file" && v.is_string()) {
                const std::string data = read_file(dir + "/" + v.get<std::string>());
                json bytes = json::array();
                for (char c : data) bytes.push_back(uint32_t(uint8_t(c)));
                out["bytes"] = bytes;
            } else {
                out[k] = inline_files(v, dir, k);
            }
        }
        return out;
    }
    if (j.is_array()) {
        json out = json::array();
        for (const json& v : j) out.push_back(inline_files(v, dir, key));
        return out;
    }
    return j;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc != 4) {
        std::cerr << "usage: seed_tool decl|bytecode|asm|scene FILE OUT\n";
        return 2;
    }
    const std::string cmd = argv[1], in = argv[2], out = argv[3];
    try {
        if (cmd == "decl") {
            write(out, words(decl::load_tokens(in), 0));
        } else if (cmd == "bytecode") {
            write(out, words(vs::load_shader(in).bytecode, 0));
        } else if (cmd == "asm") {
            const std::string text = read_file(in);
            if (vs::has_directives(text))
                write(out, vs::preprocess(text, in, in, dir_of(in), vs::PreprocOptions{}).text);
            else
                write(out, text);
        } else if (cmd == "scene") {
            write(out, inline_files(json::parse(read_file(in)), dir_of(in)).dump(1));
        } else {
            std::cerr << "seed_tool: unknown command " << cmd << "\n";
            return 2;
        }
    } catch (const std::exception& e) {
        std::cerr << "seed_tool: " << in << ": " << e.what() << "\n";
        return 1;
    }
    return 0;
}

// vpsim import's output: an import's files written all or nothing (docs/import.md).
#include "model/import/assimp_import.h"

#include "model/common/file_util.h"

#include <fmt/format.h>

#include <cstdio>
#include <filesystem>
#include <memory>
#include <vector>

namespace vpsim::import {

namespace {

namespace fs = std::filesystem;

// The directories an import's files need that do not exist yet are made (`-o newdir/scene.json`);
// the outermost ones made are returned so that a failure can remove them again.
std::vector<fs::path> make_parent_directories(const std::vector<OutputFile>& files) {
    std::vector<fs::path> made;
    for (const auto& f : files) {
        const fs::path parent = fs::path(f.path).parent_path();
        if (parent.empty()) continue;
        std::error_code ec;
        if (fs::is_directory(parent, ec)) continue;
        fs::path outermost = parent;
        while (!outermost.parent_path().empty() && outermost.parent_path() != outermost &&
               !fs::exists(outermost.parent_path(), ec))
            outermost = outermost.parent_path();
        if (!fs::create_directories(parent, ec) && ec) {
            for (const auto& d : made) fs::remove_all(d, ec);
            throw ImportError(fmt::format("{}: cannot make the directory {}: {}", f.path, parent.string(), ec.message()));
        }
        made.push_back(outermost);
    }
    return made;
}

void write_import_files(const std::vector<OutputFile>& files) {
    // Everything written to temporaries, then renamed; a failure removes what was renamed.
    std::vector<std::unique_ptr<AtomicOutput>> outs;
    try {
        for (const auto& f : files) {
            outs.push_back(std::make_unique<AtomicOutput>(f.path));
            if (!f.bytes.empty() && std::fwrite(f.bytes.data(), 1, f.bytes.size(), outs.back()->file()) != f.bytes.size())
                throw OutputError(f.path + ": cannot write");
        }
    } catch (const OutputError& e) {
        throw ImportError(e.what());
    }
    size_t done = 0;
    try {
        for (; done < outs.size(); ++done) outs[done]->commit();
    } catch (const OutputError& e) {
        for (size_t k = 0; k < done; ++k) {
            std::error_code ec;
            fs::remove(files[k].path, ec);
        }
        throw ImportError(e.what());
    }
}

}  // namespace

void write_import(const std::vector<OutputFile>& files) {
    const std::vector<fs::path> made = make_parent_directories(files);
    try {
        write_import_files(files);
    } catch (...) {
        std::error_code ec;
        for (const auto& d : made) fs::remove_all(d, ec);
        throw;
    }
}

}  // namespace vpsim::import

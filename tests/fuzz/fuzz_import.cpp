// Imports (model/import/walled_import.h) behind their wall: the first byte of the input picks a
// format (its file extension), the rest is the model file. The reading runs in a forked child
// under a 5 s / 1024 MiB limit, so Assimp's own crashes and hangs are the wall's errors, not
// findings. Properties: the walled import returns a report or throws ImportError (anything else
// escaping, or this process dying, is a finding); after an error the output directory is empty;
// after success every number in the scene is finite and the scene loads and runs
// (scene::load_scene, run_functional).
//
// Harness limits (docs/fuzzing.md): inputs up to 64 KiB. scripts/fuzz.sh runs it with
// -rss_limit_mb=0 (and so no -malloc_limit_mb): libFuzzer's malloc hook would otherwise be
// inherited by the reading child and save the child's large allocations as this process's
// out-of-memory findings; the wall's own memory limit bounds the child.
#include "fuzz_util.h"

#include "model/import/walled_import.h"
#include "model/scene/functional.h"
#include "model/scene/scene.h"

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include <unistd.h>

using namespace vpsim;
namespace fs = std::filesystem;

namespace {

const char* const kFormats[] = {".obj", ".ply", ".stl", ".off", ".dae", ".x",    ".smd", ".ase", ".3ds",
                                ".ms3d", ".b3d", ".md2", ".md3", ".mdl", ".mdc", ".ac",  ".nff", ".raw"};
constexpr size_t kNumFormats = sizeof kFormats / sizeof kFormats[0];

// This process's scratch directory (removed at exit).
const fs::path& scratch() {
    static const fs::path dir = [] {
        std::string t = (fs::temp_directory_path() / "vpsim-fuzz-import-XXXXXX").string();
        if (!::mkdtemp(t.data())) std::abort();
        std::atexit([] { fs::remove_all(scratch()); });
        return fs::path(t);
    }();
    return dir;
}

// JSON null anywhere: what nlohmann writes for NaN and infinity.
bool has_null(const nlohmann::json& j) {
    if (j.is_null()) return true;
    if (j.is_structured())
        for (const auto& v : j)
            if (has_null(v)) return true;
    return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 1 || size > 64 * 1024) return fuzz::kReject;
    const char* ext = kFormats[data[0] % kNumFormats];
    const fs::path model = scratch() / (std::string("model") + ext), out = scratch() / "out";
    fs::remove_all(out);
    fs::create_directories(out);
    {
        std::ofstream f(model, std::ios::binary);
        f.write(reinterpret_cast<const char*>(data + 1), std::streamsize(size - 1));
    }
    import::ImportOptions o;
    o.input = model.string();
    o.output = (out / "s.json").string();
    import::ImportLimits lim;
    lim.time_seconds = 5;
    lim.memory_mib = 1024;
    try {
        import::import_model_walled(o, lim);
    } catch (const import::ImportError& e) {
        const std::string m = e.what();
        FUZZ_CHECK(m.rfind(o.input + ": ", 0) == 0, "the error does not name the file: %s", m.c_str());
        FUZZ_CHECK(fs::is_empty(out), "a refused import left files in %s (%s)", out.c_str(), m.c_str());
        return 0;
    }
    std::string text;
    {
        std::ifstream f(o.output, std::ios::binary);
        text.assign(std::istreambuf_iterator<char>(f), {});
    }
    FUZZ_CHECK(!has_null(nlohmann::json::parse(text)), "the scene holds a null (a value that was not finite)");
    try {
        const scene::Scene s = scene::load_scene(o.output);
        scene::run_functional(s, vs::Profile::d3d8());
    } catch (const std::exception& e) {
        FUZZ_CHECK(false, "the imported scene does not load or run: %s", e.what());
    }
    return 0;
}

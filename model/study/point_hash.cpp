#include "model/study/point_hash.h"

#include "model/common/fnv.h"
#include "model/study/study.h"

#include <fmt/format.h>

#include <fstream>

namespace vpsim::study {

std::string binary_identity(const std::string& exe) {
    std::ifstream in(exe, std::ios::binary);
    if (!in) throw StudyError(exe + ": cannot read the vpsim binary (to hash it)");
    Fnv f;
    std::vector<char> buf(1 << 20);
    while (in) {
        in.read(buf.data(), std::streamsize(buf.size()));
        f.add(buf.data(), size_t(in.gcount()));
    }
    return fmt::format("vpsim {} binary fnv1a64:{:016x}", VPSIM_VERSION, f.h);
}

std::string point_hash(const PointInputs& in) {
    Fnv f;
    f.add("vpsim-sweep-point-1");
    f.add(in.scene);
    f.add(in.scene_hash);
    f.add(in.params_json);
    if (!in.topology.empty()) f.add("topology " + in.topology);
    for (const auto& x : in.profile) f.add("profile " + x);
    for (const auto& x : in.tess_profile) f.add("tess_profile " + x);
    for (const auto& x : in.sample) f.add("sample " + x);  // none: the hash of a full run as before
    f.add(in.binary);
    f.add(std::to_string(in.repeat));
    return fmt::format("{:016x}", f.h);
}

}  // namespace vpsim::study

#include "model/common/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <unistd.h>

namespace vpsim {

void write_file_atomic(const std::string& path, const std::string& content) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    std::FILE* f = std::fopen(tmp.c_str(), "wb");
    if (!f) throw OutputError(path + ": cannot write: " + std::strerror(errno));
    const bool ok = std::fwrite(content.data(), 1, content.size(), f) == content.size();
    const int err = errno;
    if (std::fclose(f) != 0 || !ok) {
        std::remove(tmp.c_str());
        throw OutputError(path + ": cannot write: " + std::strerror(ok ? errno : err));
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp.c_str());
        throw OutputError(path + ": cannot write: " + std::strerror(e));
    }
}

}  // namespace vpsim

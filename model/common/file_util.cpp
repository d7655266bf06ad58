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

AtomicOutput::AtomicOutput(std::string path) : path_(std::move(path)) {
    tmp_ = path_ + ".tmp." + std::to_string(::getpid());
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) throw OutputError(path_ + ": cannot write: " + std::strerror(errno));
}

AtomicOutput::~AtomicOutput() {
    if (f_) {
        std::fclose(f_);
        std::remove(tmp_.c_str());
    }
}

void AtomicOutput::write(const std::string& s) {
    if (f_ && std::fwrite(s.data(), 1, s.size(), f_) != s.size()) failed_ = true;
}

void AtomicOutput::commit() {
    if (!f_) throw OutputError(path_ + ": cannot write: already closed");
    const int err = failed_ || std::ferror(f_) ? errno : 0;
    const bool bad = std::fclose(f_) != 0 || failed_;
    f_ = nullptr;
    if (bad) {
        std::remove(tmp_.c_str());
        throw OutputError(path_ + ": cannot write: " + std::strerror(err ? err : errno));
    }
    if (std::rename(tmp_.c_str(), path_.c_str()) != 0) {
        const int e = errno;
        std::remove(tmp_.c_str());
        throw OutputError(path_ + ": cannot write: " + std::strerror(e));
    }
}

}  // namespace vpsim

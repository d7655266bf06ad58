#include "model/common/file_util.h"

#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <new>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace vpsim {

namespace {
// The temporary files open now, for the signal handler: fixed slots (no allocation, nothing
// that is not async-signal-safe in the handler).
constexpr int kSlots = 32;
constexpr size_t kPathMax = 4096;
struct Slot {
    std::atomic<int> state{0};  // 0 free, 1 being filled, 2 holds a path
    char path[kPathMax];
};
Slot g_slots[kSlots];

int register_temp(const std::string& path) {
    if (path.size() >= kPathMax) return -1;
    for (int i = 0; i < kSlots; ++i) {
        int expected = 0;
        if (!g_slots[i].state.compare_exchange_strong(expected, 1)) continue;
        std::memcpy(g_slots[i].path, path.c_str(), path.size() + 1);
        g_slots[i].state.store(2);
        return i;
    }
    return -1;  // more than kSlots at once: this one is not cleaned up on a signal
}

void unregister_temp(int slot) {
    if (slot >= 0) g_slots[slot].state.store(0);
}

void remove_temporaries() {
    for (auto& s : g_slots)
        if (s.state.load() == 2) ::unlink(s.path);
}

extern "C" void cleanup_and_exit(int sig) {
    remove_temporaries();
    ::_exit(128 + sig);
}

const char* g_oom_me = "vpsim";

// Nothing here allocates: the allocator has just failed.
void out_of_memory() {
    const char* rest =
        ": internal error: out of memory (an input limit should have prevented this; please report the command)\n";
    if (::write(2, g_oom_me, std::strlen(g_oom_me)) < 0 || ::write(2, rest, std::strlen(rest)) < 0) {
        // nothing more to say it with
    }
    remove_temporaries();
    ::_exit(3);
}
}  // namespace

void install_out_of_memory_exit(const char* me) {
    g_oom_me = me;
    std::set_new_handler(out_of_memory);
}

void install_cleanup_on_signals() {
    struct sigaction sa {};
    sa.sa_handler = cleanup_and_exit;
    sigemptyset(&sa.sa_mask);
    sigaddset(&sa.sa_mask, SIGINT);
    sigaddset(&sa.sa_mask, SIGTERM);
    sigaction(SIGINT, &sa, nullptr);
    sigaction(SIGTERM, &sa, nullptr);
}

OutputDirLock::OutputDirLock(const std::string& dir) {
    // The directory itself is locked (flock on its descriptor): no lock file to leave behind.
    fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd_ < 0) throw OutputError(dir + ": cannot open the output directory: " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
        const int e = errno;
        ::close(fd_);
        fd_ = -1;
        if (e == EWOULDBLOCK)
            throw OutputError(dir + ": another vpsim process is writing this output directory; wait for it to end or "
                                    "choose another --out");
        throw OutputError(dir + ": cannot lock the output directory: " + std::strerror(e));
    }
}

OutputDirLock::~OutputDirLock() {
    if (fd_ >= 0) ::close(fd_);  // closing releases the lock
}

bool wait_for_dir_lock(const std::string& dir, const std::function<void()>& waiting) {
    const int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) {
        if (errno == ENOENT) return false;
        throw OutputError(dir + ": cannot open the directory: " + std::strerror(errno));
    }
    struct Closer {
        int fd;
        ~Closer() { ::close(fd); }  // closing releases the lock
    } closer{fd};
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return false;
    if (errno != EWOULDBLOCK) throw OutputError(dir + ": cannot lock the directory: " + std::strerror(errno));
    waiting();
    while (::flock(fd, LOCK_EX) != 0)
        if (errno != EINTR) throw OutputError(dir + ": cannot lock the directory: " + std::strerror(errno));
    return true;
}

std::string read_file(const std::string& path) {
    std::string data, why;
    if (!read_input_file(path, data, why)) throw InputFileError((path == "-" ? std::string("<stdin>") : path) + ": " + why);
    return data;
}

bool read_input_file(const std::string& path, std::string& data, std::string& why) {
    data.clear();
    const bool in = path == "-";
    const int fd = in ? 0 : ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK);
    if (fd < 0) {
        why = std::string("cannot open: ") + std::strerror(errno);
        return false;
    }
    struct Closer {
        int fd;
        bool own;
        ~Closer() {
            if (own) ::close(fd);
        }
    } closer{fd, !in};
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        why = std::string("cannot stat: ") + std::strerror(errno);
        return false;
    }
    if (!in && !S_ISREG(st.st_mode)) {
        const char* kind = S_ISDIR(st.st_mode)   ? "a directory"
                           : S_ISCHR(st.st_mode) ? "a character device"
                           : S_ISBLK(st.st_mode) ? "a block device"
                           : S_ISFIFO(st.st_mode) ? "a FIFO"
                           : S_ISSOCK(st.st_mode) ? "a socket"
                                                  : "not a file";
        why = std::string("not a regular file (") + kind + "): vpsim reads input only from regular files";
        return false;
    }
    const auto too_big = [&](uint64_t n) {
        why = "size " + std::to_string(n) + " bytes is more than the input file limit of " +
              std::to_string(kMaxInputFileBytes) + " bytes (1 GiB)";
        return false;
    };
    if (!in && uint64_t(st.st_size) > kMaxInputFileBytes) return too_big(uint64_t(st.st_size));
    if (!in) {
        const int flags = ::fcntl(fd, F_GETFL);
        if (flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        data.reserve(size_t(st.st_size));
    }
    char buf[65536];
    for (;;) {
        const ssize_t n = ::read(fd, buf, sizeof buf);
        if (n < 0) {
            if (errno == EINTR) continue;
            why = std::string("read error: ") + std::strerror(errno);
            return false;
        }
        if (n == 0) break;
        if (data.size() + size_t(n) > kMaxInputFileBytes) return too_big(data.size() + size_t(n));
        data.append(buf, size_t(n));
    }
    return true;
}

void write_file_atomic(const std::string& path, const std::string& content) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    struct Registered {
        int slot;
        ~Registered() { unregister_temp(slot); }
    } reg{register_temp(tmp)};
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
    slot_ = register_temp(tmp_);
    f_ = std::fopen(tmp_.c_str(), "wb");
    if (!f_) {
        unregister_temp(slot_);
        throw OutputError(path_ + ": cannot write: " + std::strerror(errno));
    }
}

AtomicOutput::~AtomicOutput() {
    if (f_) {
        std::fclose(f_);
        std::remove(tmp_.c_str());
    }
    unregister_temp(slot_);
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

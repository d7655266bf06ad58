#include "model/capture/capture_reader.h"

#include "model/capture/capture_calls.h"
#include "model/common/file_util.h"

#include <fmt/format.h>

#include <cstring>
#include <stdexcept>

namespace vpsim::capture {

namespace {

uint32_t word_at(const std::string& b, uint64_t off) {
    uint32_t v;
    std::memcpy(&v, b.data() + off, 4);
    return v;
}

std::string where(const Capture& c, uint64_t frame, const std::string& call, uint64_t off) {
    return fmt::format("{}: frame {}{}, byte offset {}: ", c.name, frame, call, off);
}

// Parses the payload of one frame; false (and c.error set) when a call is damaged.
bool parse_calls(Capture& c, Frame& f, uint64_t start, uint64_t size, uint32_t count) {
    uint64_t off = start;
    const uint64_t end = start + size;
    const uint64_t header = c.version >= 3 ? VPSIM_CAPTURE_CALL_HEADER_BYTES : VPSIM_CAPTURE_CALL_HEADER_BYTES_V2;
    for (uint32_t k = 0; k < count; ++k) {
        const std::string call = fmt::format(", call {}", k);
        if (end - off < header) {
            c.error = where(c, f.index, call, off) + fmt::format("the frame's payload ends inside a call header ({} calls announced)", count);
            return false;
        }
        Call x;
        x.op = uint32_t(uint8_t(c.bytes[off])) | uint32_t(uint8_t(c.bytes[off + 1])) << 8;
        x.offset = off;
        x.size = word_at(c.bytes, off + 4);
        if (c.version >= 3) x.hresult = word_at(c.bytes, off + 8);
        x.args_offset = off + header;
        if (x.size > end - x.args_offset) {
            c.error = where(c, f.index, call, off) + fmt::format("{} argument bytes go past the frame's end", x.size);
            return false;
        }
        const std::string rule = check_arguments(x.op, c.data(x), x.size, c.version);
        if (!rule.empty()) {
            c.error = where(c, f.index, call, off) + rule;
            return false;
        }
        f.calls.push_back(x);
        off = x.args_offset + x.size;
    }
    if (off != end) {
        c.error = where(c, f.index, "", off) + fmt::format("{} bytes after the frame's {} calls", end - off, count);
        return false;
    }
    return true;
}

}  // namespace

Capture parse_capture(std::string bytes, const std::string& name) {
    Capture c;
    c.name = name;
    c.bytes = std::move(bytes);
    const std::string& b = c.bytes;
    if (b.size() < VPSIM_CAPTURE_HEADER_BYTES || b.compare(0, 8, VPSIM_CAPTURE_MAGIC) != 0) {
        c.error = fmt::format("{}: byte offset 0: not a vpsim capture (expected the 32-byte header starting \"{}\")", name,
                              VPSIM_CAPTURE_MAGIC);
        return c;
    }
    c.version = word_at(b, 8);
    if (c.version < VPSIM_CAPTURE_OLDEST_VERSION || c.version > VPSIM_CAPTURE_VERSION ||
        word_at(b, 12) != VPSIM_CAPTURE_HEADER_BYTES) {
        c.error = fmt::format("{}: byte offset 8: capture version {} with a {}-byte header; this vpsim reads versions {}..{} ({} bytes)",
                              name, c.version, word_at(b, 12), VPSIM_CAPTURE_OLDEST_VERSION, VPSIM_CAPTURE_VERSION,
                              VPSIM_CAPTURE_HEADER_BYTES);
        return c;
    }
    c.flags = word_at(b, 16);
    c.first_frame = word_at(b, 20);
    c.last_frame = word_at(b, 24);
    uint64_t off = VPSIM_CAPTURE_HEADER_BYTES;
    while (off < b.size()) {
        const uint64_t frame = c.frames.size();
        if (b.size() - off < VPSIM_CAPTURE_FRAME_HEADER_BYTES) {
            c.error = where(c, frame, "", off) + "the file ends inside a frame header (a truncated capture)";
            return c;
        }
        Frame f;
        f.offset = off;
        f.index = word_at(b, off + 4);
        const uint32_t count = word_at(b, off + 8), size = word_at(b, off + 12), sum = word_at(b, off + 16);
        if (word_at(b, off) != VPSIM_CAPTURE_FRAME_MAGIC) {
            c.error = where(c, frame, "", off) + "no frame header here (expected \"FRAM\")";
            return c;
        }
        if (f.index != frame) {
            c.error = where(c, frame, "", off) + fmt::format("the frame header says frame {}", f.index);
            return c;
        }
        const uint64_t start = off + VPSIM_CAPTURE_FRAME_HEADER_BYTES;
        if (size > b.size() - start) {
            c.error = where(c, frame, "", off) +
                      fmt::format("the frame's {} payload bytes go past the end of the file ({} left): a truncated capture",
                                  size, b.size() - start);
            return c;
        }
        const uint32_t actual = vpsim_capture_checksum(reinterpret_cast<const unsigned char*>(b.data()) + start, size);
        if (actual != sum) {
            c.error = where(c, frame, "", off) +
                      fmt::format("checksum 0x{:08x} of the payload is not the recorded 0x{:08x}", actual, sum);
            return c;
        }
        if (!parse_calls(c, f, start, size, count)) return c;
        c.frames.push_back(std::move(f));
        off = start + size;
    }
    return c;
}

Capture read_capture(const std::string& path) {
    std::string data, why;
    if (!read_input_file(path, data, why)) throw std::runtime_error(path + ": " + why);
    return parse_capture(std::move(data), path);
}

}  // namespace vpsim::capture

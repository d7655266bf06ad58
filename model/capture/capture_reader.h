// Reads a capture file (docs/capture.md) into its frames. Damage — a bad header, a frame whose
// checksum or size is wrong, a call that breaks its op's layout, a file cut short — ends the
// reading: the frames before it are kept and `error` locates it (frame, call, byte offset).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::capture {

struct Call {
    uint32_t op = 0;
    uint64_t offset = 0;      // of the call header in the file
    uint64_t args_offset = 0; // of its arguments in the file
    uint32_t size = 0;        // argument bytes
    uint32_t hresult = 0;     // what the runtime returned (version 3; before it only calls that succeeded were recorded)
    bool refused() const { return (hresult & 0x80000000u) != 0; }  // FAILED(hresult)
};

struct Frame {
    uint32_t index = 0;
    uint64_t offset = 0;  // of the frame header in the file
    std::vector<Call> calls;
};

struct Capture {
    std::string name;  // the file, for messages
    std::string bytes; // the whole file
    uint32_t version = 0, flags = 0, first_frame = 0, last_frame = 0xFFFFFFFFu;
    std::vector<Frame> frames;  // the complete, intact frames, in file order
    std::string error;          // "" when the whole file was read; else where and why it stopped

    const uint8_t* data(const Call& c) const { return reinterpret_cast<const uint8_t*>(bytes.data()) + c.args_offset; }
};

// Parses bytes already read. A header that is not a capture's leaves no frame and sets error.
Capture parse_capture(std::string bytes, const std::string& name);
// Reads the file (read_input_file's rules) and parses it; throws std::runtime_error when it
// cannot be read.
Capture read_capture(const std::string& path);

}  // namespace vpsim::capture

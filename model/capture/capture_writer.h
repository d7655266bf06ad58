// Writes a capture (docs/capture.md) in memory: the recorder's format, from C++ — the unit tests
// build captures with it, without Wine.
#pragma once

#include "model/capture/capture_format.h"

#include <cstdint>
#include <string>
#include <vector>

namespace vpsim::capture {

class CaptureWriter {
public:
    explicit CaptureWriter(uint32_t flags = 0, uint32_t first_frame = 0, uint32_t last_frame = 0xFFFFFFFFu);
    // One call: op, then its arguments' words and bytes in order.
    CaptureWriter& call(uint16_t op, const std::vector<uint32_t>& words, const std::string& data = {});
    CaptureWriter& call_floats(uint16_t op, const std::vector<uint32_t>& words, const std::vector<float>& floats);
    // A Present call, then the frame's record appended to the file.
    CaptureWriter& present();
    const std::string& bytes() const { return out_; }

private:
    std::string out_, frame_;
    uint32_t calls_ = 0, frame_index_ = 0;
};

}  // namespace vpsim::capture

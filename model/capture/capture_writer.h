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
    explicit CaptureWriter(uint32_t flags = 0, uint32_t first_frame = 0, uint32_t last_frame = 0xFFFFFFFFu,
                           uint32_t version = VPSIM_CAPTURE_VERSION);
    // One call: op, then its arguments' words and bytes in order; it succeeded (HRESULT 0).
    CaptureWriter& call(uint16_t op, const std::vector<uint32_t>& words, const std::string& data = {}) {
        return call_hr(op, 0, words, data);
    }
    // The same with the HRESULT the runtime returned (version 3; an older version has no place for it).
    CaptureWriter& call_hr(uint16_t op, uint32_t hresult, const std::vector<uint32_t>& words, const std::string& data = {});
    CaptureWriter& call_floats(uint16_t op, const std::vector<uint32_t>& words, const std::vector<float>& floats);
    // A Present call, then the frame's record appended to the file.
    CaptureWriter& present();
    const std::string& bytes() const { return out_; }

private:
    std::string out_, frame_;
    uint32_t calls_ = 0, frame_index_ = 0, version_ = VPSIM_CAPTURE_VERSION;
};

}  // namespace vpsim::capture

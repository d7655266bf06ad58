#include "model/capture/capture_writer.h"

#include <cstring>

namespace vpsim::capture {

namespace {
void put32(std::string& s, uint32_t v) {
    char b[4];
    std::memcpy(b, &v, 4);
    s.append(b, 4);
}
}  // namespace

CaptureWriter::CaptureWriter(uint32_t flags, uint32_t first_frame, uint32_t last_frame, uint32_t version) : version_(version) {
    out_.append(VPSIM_CAPTURE_MAGIC, 8);
    for (uint32_t v : {version, VPSIM_CAPTURE_HEADER_BYTES, flags, first_frame, last_frame, 0u}) put32(out_, v);
}

CaptureWriter& CaptureWriter::call_hr(uint16_t op, uint32_t hresult, const std::vector<uint32_t>& words, const std::string& data) {
    const uint32_t n = uint32_t(4 * words.size() + data.size());
    put32(frame_, op);
    put32(frame_, n);
    if (version_ >= 3) put32(frame_, hresult);
    for (uint32_t w : words) put32(frame_, w);
    frame_ += data;
    ++calls_;
    return *this;
}

CaptureWriter& CaptureWriter::call_floats(uint16_t op, const std::vector<uint32_t>& words, const std::vector<float>& floats) {
    std::string data(4 * floats.size(), '\0');
    if (!floats.empty()) std::memcpy(data.data(), floats.data(), data.size());
    return call(op, words, data);
}

CaptureWriter& CaptureWriter::present() {
    call(VPSIM_OP_PRESENT, {});
    put32(out_, VPSIM_CAPTURE_FRAME_MAGIC);
    put32(out_, frame_index_++);
    put32(out_, calls_);
    put32(out_, uint32_t(frame_.size()));
    put32(out_, vpsim_capture_checksum(reinterpret_cast<const unsigned char*>(frame_.data()), frame_.size()));
    out_ += frame_;
    frame_.clear();
    calls_ = 0;
    return *this;
}

}  // namespace vpsim::capture

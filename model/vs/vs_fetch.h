// Vertex fetch, functional: the 16 input registers of one vertex from the bound streams.
#pragma once

#include "model/decl/decl_decoder.h"
#include "model/vs/vs_exec.h"

#include <stdexcept>

namespace vpsim::vs {

struct StreamBinding {
    const uint8_t* data = nullptr;  // the vertex buffer
    size_t size = 0;                // bytes
    uint32_t stride = 0;            // SetStreamSource stride
    bool bound = false;
};
using Streams = std::array<StreamBinding, 16>;

// A stream problem at draw time: names the stream and, where there is one, the vertex index.
struct FetchError : std::runtime_error {
    FetchError(uint32_t stream, int64_t index, const std::string& message);
    uint32_t stream;
    int64_t index;  // -1 when not about one vertex
};

// Checks every memory stream of the declaration is bound with stride >= its declared size.
void check_streams(const decl::Declaration& d, const Streams& streams);

// Expands one element of `type` at `p` to four floats (the 8 D3DVSDT_ types).
Vec4 expand_element(uint32_t type, const uint8_t* p);

// v0..v15 of vertex `index`. Registers the declaration does not load are (0, 0, 0, 0): a
// shader may not read them (declaration rule 17). Throws FetchError.
std::array<Vec4, kNumInputs> fetch_vertex(const decl::Declaration& d, const Streams& streams, uint32_t index);

}  // namespace vpsim::vs

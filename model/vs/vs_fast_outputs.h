// The fast path's output stores (vs_fast.h): SoA slots into VertexOutputs or packed records.
#pragma once

#include "model/vs/vs_fast_kernels.h"

namespace vpsim::vs::fast {

// The floats of output register `reg` (FastOutReg) in `o`.
float* field(VertexOutputs& o, unsigned reg);

// What a vertex's outputs hold before the shader writes them (profile.outputs).
VertexOutputs default_outputs(const Profile& p);

// Vertices 0..n-1 of the batch into out[0..n-1]: `def`, then the registers the shader writes.
void store_outputs(const FastShader& fs, const Ctx& c, const VertexOutputs& def, VertexOutputs* out, size_t n);

// Outputs larger than this are written with non-temporal stores when the records allow it: they
// go to memory without being read into the cache first (no write-allocate), and do not evict the
// batch's working set. Smaller outputs stay in the cache for whoever reads them next.
constexpr size_t kStreamingBytes = size_t(4) << 20;

// Vertices 0..n-1 of the batch as packed records from `out` (fs.packed_stride floats each).
// Streaming: non-temporal stores (needs 16-byte aligned records; see run_fast_fetch_packed).
template <bool Streaming>
void store_packed(const FastShader& fs, const Ctx& c, float* out, size_t n);
extern template void store_packed<false>(const FastShader&, const Ctx&, float*, size_t);
#if defined(__SSE2__)
extern template void store_packed<true>(const FastShader&, const Ctx&, float*, size_t);
#endif

}  // namespace vpsim::vs::fast

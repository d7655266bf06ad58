// The vertex fetch as the fetch unit's pins carry it (rtl/vertex_fetch.sv, docs/vertex-fetch-rtl.md):
// the layout bus of a declaration, the loaded mask, and one vertex's v0..v15 as out_regs' bits,
// read from a byte-addressed memory at base[stream] + stride[stream] * index + offset (mod 2^32).
// The values are vs::fetch_vertex's (the golden fetch), bit for bit.
#pragma once

#include "model/decl/decl_decoder.h"

#include <array>
#include <cstdint>
#include <functional>
#include <stdexcept>
#include <vector>

namespace vpsim::vs {

inline constexpr uint32_t kFetchUnitMaxElems = 20;        // the RTL's MAX_ELEMS default (lay_elems: 20 x 32 bits)
inline constexpr uint32_t kFetchUnitMaxOffset = 1u << 20;  // the layout bus's offset field: [31:12]

// The layout bus (lay_count = size, lay_elems) of a valid declaration: one word per ELEMENT event in
// declaration order, [2:0] type, [7:3] register, [11:8] stream, [31:12] byte offset. An element whose
// register a later TESS event overwrites is register 31 (fetched, dropped); register 16 stays 16.
// Throws std::invalid_argument (naming the element) when the declaration is not valid, has more
// than max_elems elements or an offset of 2^20 bytes or more.
std::vector<uint32_t> fetch_unit_layout(const decl::Declaration& d, uint32_t max_elems = kFetchUnitMaxElems);

// out_loaded: the registers v0..v15 whose last writer in declaration order is an element.
uint32_t fetch_unit_loaded(const decl::Declaration& d);

// Reads n bytes at byte address addr (mod 2^32) into out; false when the memory does not hold them.
using MemoryRead = std::function<bool(uint32_t addr, uint32_t n, uint8_t* out)>;

// One vertex: out_regs as 64 words (v_r component c at [4r + c], x = 0 .. w = 3), registers the
// layout does not load 0. Throws std::runtime_error naming the element and its byte addresses
// when `read` refuses them.
std::array<uint32_t, 64> fetch_unit_vertex(const decl::Declaration& d, const std::array<uint32_t, 16>& base,
                                           const std::array<uint32_t, 16>& stride, uint32_t index, const MemoryRead& read);

}  // namespace vpsim::vs

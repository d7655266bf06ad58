/* vpsim's D3D8 capture format (docs/capture.md): the constants and the frame checksum shared by
 * the recorder (model/capture/recorder/proxy_d3d8.c, C, built with mingw-w64) and the reader / writer in
 * model/capture (C++). Plain C so both compilers read the same definitions.
 *
 * A capture is a 32-byte file header, then frame records. A frame record is a 20-byte frame
 * header followed by its payload: the frame's calls, each a 12-byte call header (op, arguments'
 * byte count, the HRESULT the runtime returned; 8 bytes without it before version 3) and its arguments. All numbers are little-endian; floats are IEEE-754 binary32. */
#ifndef VPSIM_CAPTURE_FORMAT_H
#define VPSIM_CAPTURE_FORMAT_H

#include <stdint.h>

#define VPSIM_CAPTURE_MAGIC "VPSIMCAP"  /* the file's first 8 bytes */
#define VPSIM_CAPTURE_VERSION 3u      /* versions 1 (ops 1..24) and 2 (8-byte call headers) are still read */
#define VPSIM_CAPTURE_OLDEST_VERSION 1u
#define VPSIM_CAPTURE_HEADER_BYTES 32u
#define VPSIM_CAPTURE_FRAME_MAGIC 0x4D415246u /* "FRAM" */
#define VPSIM_CAPTURE_FRAME_HEADER_BYTES 20u
#define VPSIM_CAPTURE_CALL_HEADER_BYTES 12u   /* op, reserved, argument bytes, the call's HRESULT */
#define VPSIM_CAPTURE_CALL_HEADER_BYTES_V2 8u /* versions 1 and 2: op, reserved, argument bytes (every call succeeded) */

/* File header flags. */
#define VPSIM_CAPTURE_FLAG_VIRTUAL_TIME 1u /* the program's timers were virtualised per frame */

/* Call ops (the u16 of a call header). The arguments of each are in docs/capture.md. */
enum vpsim_capture_op {
    VPSIM_OP_CREATE_DEVICE = 1,
    VPSIM_OP_CREATE_VERTEX_BUFFER = 2,
    VPSIM_OP_CREATE_INDEX_BUFFER = 3,
    VPSIM_OP_VERTEX_BUFFER_DATA = 4,  /* a Lock/Unlock of a vertex buffer: the bytes written */
    VPSIM_OP_INDEX_BUFFER_DATA = 5,
    VPSIM_OP_SET_STREAM_SOURCE = 6,
    VPSIM_OP_SET_INDICES = 7,
    VPSIM_OP_CREATE_VERTEX_SHADER = 8,
    VPSIM_OP_SET_VERTEX_SHADER = 9,
    VPSIM_OP_DELETE_VERTEX_SHADER = 10,
    VPSIM_OP_SET_VERTEX_SHADER_CONSTANT = 11,
    VPSIM_OP_SET_TRANSFORM = 12,
    VPSIM_OP_MULTIPLY_TRANSFORM = 13,
    VPSIM_OP_SET_LIGHT = 14,
    VPSIM_OP_LIGHT_ENABLE = 15,
    VPSIM_OP_SET_MATERIAL = 16,
    VPSIM_OP_SET_RENDER_STATE = 17,
    VPSIM_OP_SET_TEXTURE_STAGE_STATE = 18,
    VPSIM_OP_SET_VIEWPORT = 19,
    VPSIM_OP_DRAW_PRIMITIVE = 20,
    VPSIM_OP_DRAW_INDEXED_PRIMITIVE = 21,
    VPSIM_OP_DRAW_PRIMITIVE_UP = 22,
    VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP = 23,
    VPSIM_OP_PRESENT = 24,
    VPSIM_OP_LAST_V1 = 24, /* the last op of format version 1 */
    /* Version 2: */
    VPSIM_OP_DEVICE_CAPS = 25,        /* the new device's D3DCAPS8 fields (VPSIM_CAPS_*), after CreateDevice */
    VPSIM_OP_CREATE_STATE_BLOCK = 26,
    VPSIM_OP_BEGIN_STATE_BLOCK = 27,
    VPSIM_OP_END_STATE_BLOCK = 28,
    VPSIM_OP_CAPTURE_STATE_BLOCK = 29,
    VPSIM_OP_APPLY_STATE_BLOCK = 30,
    VPSIM_OP_DELETE_STATE_BLOCK = 31,
    VPSIM_OP_PROCESS_VERTICES = 32,   /* with the destination buffer's bytes it wrote */
    VPSIM_OP_RESET = 33,
    VPSIM_OP_LAST = 33
};

/* The D3DCAPS8 fields of VPSIM_OP_DEVICE_CAPS, one word each, in this order. */
enum vpsim_capture_caps {
    VPSIM_CAPS_DEVICE_TYPE, VPSIM_CAPS_ADAPTER_ORDINAL, VPSIM_CAPS_CAPS, VPSIM_CAPS_CAPS2, VPSIM_CAPS_CAPS3,
    VPSIM_CAPS_DEV_CAPS, VPSIM_CAPS_PRIMITIVE_MISC_CAPS, VPSIM_CAPS_RASTER_CAPS, VPSIM_CAPS_FVF_CAPS,
    VPSIM_CAPS_VERTEX_PROCESSING_CAPS, VPSIM_CAPS_MAX_ACTIVE_LIGHTS, VPSIM_CAPS_MAX_USER_CLIP_PLANES,
    VPSIM_CAPS_MAX_VERTEX_BLEND_MATRICES, VPSIM_CAPS_MAX_VERTEX_BLEND_MATRIX_INDEX, VPSIM_CAPS_MAX_POINT_SIZE /* float */,
    VPSIM_CAPS_MAX_PRIMITIVE_COUNT, VPSIM_CAPS_MAX_VERTEX_INDEX, VPSIM_CAPS_MAX_STREAMS, VPSIM_CAPS_MAX_STREAM_STRIDE,
    VPSIM_CAPS_VERTEX_SHADER_VERSION, VPSIM_CAPS_MAX_VERTEX_SHADER_CONST, VPSIM_CAPS_PIXEL_SHADER_VERSION,
    VPSIM_CAPS_WORDS
};

/* The frame checksum: FNV-1a (32-bit) over the frame's payload bytes. */
static inline uint32_t vpsim_capture_checksum(const unsigned char* p, uint64_t n) {
    uint32_t h = 2166136261u;
    for (uint64_t i = 0; i < n; ++i) {
        h ^= p[i];
        h *= 16777619u;
    }
    return h;
}

#endif

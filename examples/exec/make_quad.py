#!/usr/bin/env python3
"""Writes quad.vb: 4 vertices of 20 bytes for quad.decl (little-endian, no padding).

Each vertex: FLOAT3 position (v0), D3DCOLOR diffuse (v5) as the ARGB DWORD 0xAARRGGBB
(so the bytes in memory are B, G, R, A), SHORT2 texture coordinate (v7).
Run from anywhere: python3 examples/exec/make_quad.py
"""
import os
import struct

VERTICES = [
    # position              ARGB         SHORT2
    ((-1.0, -1.0, 0.5),  0xFFFF0000, (0, 0)),
    ((1.0, -1.0, 0.5),   0x80FF4000, (-2, 300)),
    ((1.0, 1.0, 0.5),    0x0000FF00, (32767, -32768)),
    ((-1.0, 1.0, 0.25),  0xFF0000FF, (-1, 1)),
]

data = b"".join(struct.pack("<3fI2h", *pos, argb, *uv) for pos, argb, uv in VERTICES)
path = os.path.join(os.path.dirname(os.path.abspath(__file__)), "quad.vb")
with open(path, "wb") as f:
    f.write(data)
print(f"{path}: {len(data)} bytes, {len(VERTICES)} vertices of 20 bytes")

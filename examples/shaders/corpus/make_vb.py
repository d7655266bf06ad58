#!/usr/bin/env python3
"""Writes the corpus's vertex buffers: pnt.vb (pnt.decl, 32-byte vertices) and skin.vb
(skin.decl, 44-byte vertices), 8 vertices each, little-endian."""
import math
import os
import struct

here = os.path.dirname(os.path.abspath(__file__))
pnt, skin = bytearray(), bytearray()
for i in range(8):
    a = i * math.pi / 4
    pos = (math.cos(a), math.sin(a), 0.25 * i)
    nrm = (math.cos(a), math.sin(a), 0.0)
    uv = (i / 7.0, 1.0 - i / 7.0)
    pnt += struct.pack("<3f3f2f", *pos, *nrm, *uv)
    w = (0.25 + 0.5 * (i % 2), 0.0)
    idx = (i % 4, (i + 1) % 4, 0, 0)
    skin += struct.pack("<3f2f4B3f2f", *pos, *w, *idx, *nrm, *uv)
open(os.path.join(here, "pnt.vb"), "wb").write(pnt)
open(os.path.join(here, "skin.vb"), "wb").write(skin)

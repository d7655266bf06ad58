#!/usr/bin/env python3
"""Prints the scope and signal names of an FST file's hierarchy, one per line (for the tests: the
hierarchy block of Verilator's FST writer is LZ4-compressed; a small LZ4 block decoder reads it).
usage: fst_hierarchy.py FILE.fst"""
import re
import sys


def lz4_block(src, n):
    out, i = bytearray(), 0
    while i < len(src):
        tok = src[i]
        i += 1
        lit = tok >> 4
        if lit == 15:
            while True:
                b = src[i]
                i += 1
                lit += b
                if b != 255:
                    break
        out += src[i:i + lit]
        i += lit
        if i >= len(src) or len(out) >= n:
            break
        off = src[i] | (src[i + 1] << 8)
        i += 2
        ml = tok & 15
        if ml == 15:
            while True:
                b = src[i]
                i += 1
                ml += b
                if b != 255:
                    break
        for _ in range(ml + 4):
            out.append(out[-off])
    return bytes(out)


data = open(sys.argv[1], "rb").read()
i, names = 0, set()
while i + 9 <= len(data):
    kind, length = data[i], int.from_bytes(data[i + 1:i + 9], "big")
    if kind == 6:  # FST_BL_HIER_LZ4: uncompressed length, then the LZ4 block
        n = int.from_bytes(data[i + 9:i + 17], "big")
        for raw in lz4_block(data[i + 17:i + 1 + length], n).split(b"\0"):
            m = re.search(rb"([A-Za-z_][A-Za-z0-9_]*(?: \[[0-9:]+\])?)$", raw)
            if m:
                names.add(m.group(1).decode())
    i += 1 + length
print("\n".join(sorted(names)))

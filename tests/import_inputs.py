#!/usr/bin/env python3
"""Models the import tests write themselves (tests/cli/import_wall.cmake): no file of another
project is copied into the tests.

  import_inputs.py md3-one-frame PATH   a valid MD3 with one frame, one surface, one triangle
  import_inputs.py grid-obj PATH N      an OBJ of an N x N vertex grid (2 (N-1)^2 triangles)
  import_inputs.py latin1-obj PATH      an OBJ of one triangle in an object named "caf\xe9" (Latin-1, not UTF-8)
  import_inputs.py crash-smd PATH       an SMD of one triangle whose one node is numbered 4294967295: libassimp
                                        5.2's SMD reader dies of SIGSEGV on it (`assimp info` too)
  import_inputs.py nan-md2 PATH         an MD2 of two frames, one triangle, frame 1's x scale NaN
"""
import math
import struct
import sys


def md3_one_frame(path):
    verts = [(0, 0, 0), (64, 0, 0), (0, 64, 0)]  # 1/64 units: (0,0,0), (1,0,0), (0,1,0)
    tris = [(0, 1, 2)]
    frame = struct.pack("<3f3f3ff16s", 0, 0, 0, 1, 1, 0, 0, 0, 0, 1.5, b"frame0")
    shader = struct.pack("<64si", b"", 0)
    tri_bytes = b"".join(struct.pack("<3i", *t) for t in tris)
    st_bytes = b"".join(struct.pack("<2f", v[0] / 64, v[1] / 64) for v in verts)
    xyz_bytes = b"".join(struct.pack("<3hH", *v, 0) for v in verts)
    surf_header = 108
    ofs_shaders = surf_header
    ofs_tris = ofs_shaders + len(shader)
    ofs_st = ofs_tris + len(tri_bytes)
    ofs_xyz = ofs_st + len(st_bytes)
    ofs_end = ofs_xyz + len(xyz_bytes)
    surface = struct.pack("<4s64s10i", b"IDP3", b"tri", 0, 1, 1, len(verts), len(tris), ofs_tris, ofs_shaders, ofs_st,
                          ofs_xyz, ofs_end) + shader + tri_bytes + st_bytes + xyz_bytes
    ofs_frames = 108
    ofs_tags = ofs_frames + len(frame)
    ofs_surfaces = ofs_tags
    ofs_eof = ofs_surfaces + len(surface)
    header = struct.pack("<4si64s9i", b"IDP3", 15, b"one_frame", 0, 1, 0, 1, 0, ofs_frames, ofs_tags, ofs_surfaces,
                         ofs_eof)
    with open(path, "wb") as f:
        f.write(header + frame + surface)


def grid_obj(path, n):
    with open(path, "w") as f:
        for y in range(n):
            f.write("".join(f"v {x} {y} {(x * y) % 7}\n" for x in range(n)))
        for y in range(n - 1):
            rows = []
            for x in range(n - 1):
                a = y * n + x + 1
                rows.append(f"f {a} {a + 1} {a + n}\nf {a + 1} {a + n + 1} {a + n}\n")
            f.write("".join(rows))


def latin1_obj(path):
    with open(path, "wb") as f:
        f.write(b"o caf\xe9\nv 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 2 3\n")


def crash_smd(path):
    with open(path, "w") as f:
        f.write("version 1\nnodes\n  4294967295 \"root\"  -1\nend\nskeleton\ntime 0\n  0 0.0 0.0 0.0 0.0 0.0 0.0\nend\n"
                "triangles\nmat\n0  0.0 0.0 0.0 0.0 0.0 1.0 0.0 0.0\n0  1.0 0.0 0.0 0.0 0.0 1.0 1.0 0.0\n"
                "0  0.0 1.0 0.0 0.0 0.0 1.0 0.0 1.0\nend\n")


def nan_md2(path):
    verts = [(0, 0, 0), (255, 0, 0), (0, 255, 0)]
    st = struct.pack("<6h", 0, 0, 8, 0, 0, 8)
    tri = struct.pack("<6h", 0, 1, 2, 0, 1, 2)
    frames = b""
    for k, sx in enumerate([1 / 255, math.nan]):
        frames += struct.pack("<3f3f16s", sx, 1 / 255, 1 / 255, 0, 0, 0, f"frame{k}".encode())
        frames += b"".join(struct.pack("<4B", *v, 0) for v in verts)
    framesize = 40 + 4 * len(verts)
    ofs_st = 68
    ofs_tris = ofs_st + len(st)
    ofs_frames = ofs_tris + len(tri)
    glcmds = struct.pack("<i", 0)  # an empty GL command list (its terminator)
    ofs_glcmds = ofs_frames + len(frames)
    ofs_end = ofs_glcmds + len(glcmds)
    header = struct.pack("<4s16i", b"IDP2", 8, 8, 8, framesize, 0, len(verts), 3, 1, 1, 2, ofs_st, ofs_st, ofs_tris,
                         ofs_frames, ofs_glcmds, ofs_end)
    with open(path, "wb") as f:
        f.write(header + st + tri + frames + glcmds)


if __name__ == "__main__":
    kind, path = sys.argv[1], sys.argv[2]
    if kind == "md3-one-frame":
        md3_one_frame(path)
    elif kind == "grid-obj":
        grid_obj(path, int(sys.argv[3]))
    elif kind == "latin1-obj":
        latin1_obj(path)
    elif kind == "crash-smd":
        crash_smd(path)
    elif kind == "nan-md2":
        nan_md2(path)
    else:
        sys.exit(f"import_inputs.py: {kind}: unknown kind")

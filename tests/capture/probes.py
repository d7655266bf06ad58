"""The probes of examples/d3d8/d3d8_calls.cpp (docs/capture.md): each ProcessVertices in the capture
holds Wine's own transform of a triangle (XYZRHW|DIFFUSE, 20 bytes a vertex) with the device's state
at that point; the draw that follows it draws the same triangle with the same state. vpsim's
outputs for that draw (scene-exec --json), mapped to the screen with the viewport the converted
scene has at the draw, must give the same positions, 1/w and colours. A state block or Reset
converted differently from what Wine did changes a world matrix, the viewport or AMBIENT, and
so the positions or colours of a probe.
Usage: probes.py CAPTURE SCENE.json SCENE_EXEC.json"""
import json
import struct
import sys

PV, DRAWS = 32, (20, 21, 22, 23)


def calls(path):
    b = open(path, "rb").read()
    version = struct.unpack_from("<I", b, 8)[0]
    assert b[:8] == b"VPSIMCAP" and version in (2, 3), "not a version 2 or 3 capture"
    head = 12 if version >= 3 else 8  # version 3's call header holds the HRESULT
    off = 32
    while off < len(b):
        _, _, count, size, _ = struct.unpack_from("<5I", b, off)
        p = off + 20
        for _ in range(count):
            op, n = struct.unpack_from("<HxxI", b, p)
            yield op, b[p + head:p + head + n]
            p += head + n
        off += 20 + size


def probes(path):
    """(draw index, [(x, y, z, rhw, argb)] * 3) for each ProcessVertices and the draw after it."""
    out, pending, draw = [], None, 0
    for op, a in calls(path):
        if op == PV:
            off, size = struct.unpack_from("<2I", a, 20)
            data = a[28:28 + size]
            pending = [struct.unpack_from("<4fI", data, 20 * i) for i in range(size // 20)]
        elif op in DRAWS:
            if pending is not None:
                out.append((draw, pending))
                pending = None
            draw += 1
    return out


def viewports(scene):
    """The viewport in effect at each draw of the scene, in order."""
    vp, out = None, []
    for c in scene["commands"]:
        if c["op"] == "SetViewport":
            vp = c["viewport"]
        elif c["op"].startswith("Draw"):
            out.append(vp)
    return out


def main():
    cap, scene, exe = sys.argv[1:4]
    vps = viewports(json.load(open(scene)))
    draws = json.load(open(exe))["draws"]
    found = probes(cap)
    assert found, "no ProcessVertices in the capture"
    for k, (d, wine) in enumerate(found):
        vp, outs = vps[d], draws[d]["outputs"]
        assert len(outs) == len(wine), f"probe {k}: draw {d} has {len(outs)} vertices, ProcessVertices {len(wine)}"
        for v, (o, w) in enumerate(zip(outs, wine)):
            x, y, z, cw = o["oPos"]
            mine = (vp["x"] + (1 + x / cw) * vp["width"] / 2, vp["y"] + (1 - y / cw) * vp["height"] / 2,
                    vp["minz"] + z / cw * (vp["maxz"] - vp["minz"]), 1 / cw)
            for i, name in enumerate("x y z rhw".split()):
                assert abs(mine[i] - w[i]) <= 1e-3 * max(1, abs(w[i])), \
                    f"probe {k} (draw {d}), vertex {v}: {name} {mine[i]} from vpsim, {w[i]} from Wine"
            argb = w[4]
            wine_rgba = [(argb >> 16) & 255, (argb >> 8) & 255, argb & 255, argb >> 24]
            vpsim_rgba = [round(min(max(c, 0), 1) * 255) for c in o["oD0"]]
            assert all(abs(a - b) <= 1 for a, b in zip(vpsim_rgba, wine_rgba)), \
                f"probe {k} (draw {d}), vertex {v}: colour {vpsim_rgba} from vpsim, {wine_rgba} from Wine"
    print(f"{len(found)} probes: vpsim's positions and colours are Wine's ProcessVertices results")


main()

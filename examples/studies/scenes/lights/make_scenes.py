#!/usr/bin/env python3
"""Writes the scenes of examples/studies/ff_lights.json: one fixed-function scene per light type
(directional, point, spot) and number of lights (1..8), in this folder as TYPE_N.json.

Every scene is the same 48 x 32 sphere (FVF XYZ|NORMAL|TEX1, meshoptimizer's order) under the
workloads' camera and material; only the lights differ. The lights are diffuse only (no
specular), and the point and spot lights have attenuation (1, 0, 0) and no range (D3D8's
largest, sqrt(FLT_MAX)): the settings with which 8 lights of every type fit vs.1.1's 128
instruction slots (docs/fixed-function.md, the counts table; with distance attenuation, a
range or specular, 8 spot lights are refused at the draw). Spot lights: theta 0.5, phi 1,
falloff 1. Run it again after changing it:  /usr/bin/python3 make_scenes.py
"""
import json
import math
import os

HERE = os.path.dirname(os.path.abspath(__file__))
SQRT_FLT_MAX = 1.8446742974197924e19  # float32 sqrt(FLT_MAX): no range cut-off
COLOURS = [[1.0, 0.9, 0.8, 1], [0.3, 0.5, 1.0, 1], [0.9, 0.3, 0.3, 1], [0.3, 0.9, 0.4, 1],
           [0.8, 0.8, 0.3, 1], [0.7, 0.3, 0.9, 1], [0.3, 0.8, 0.8, 1], [0.6, 0.6, 0.6, 1]]


def camera():
    """The workloads' camera (the eye at (1.409538, -1.02606, -2.441394), looking at the origin),
    as D3D's VIEW, and a 60-degree 4:3 perspective PROJECTION (near 0.1, far 100)."""
    eye = [1.409538, -1.02606, -2.441394]
    n = math.sqrt(sum(e * e for e in eye))
    z = [-e / n for e in eye]
    up = [0, 1, 0]
    x = [up[1] * z[2] - up[2] * z[1], up[2] * z[0] - up[0] * z[2], up[0] * z[1] - up[1] * z[0]]
    xn = math.sqrt(sum(a * a for a in x))
    x = [a / xn for a in x]
    y = [z[1] * x[2] - z[2] * x[1], z[2] * x[0] - z[0] * x[2], z[0] * x[1] - z[1] * x[0]]
    dot = lambda a, b: sum(p * q for p, q in zip(a, b))
    r = lambda v: round(v, 6) + 0.0
    view = [[r(x[0]), r(y[0]), r(z[0]), 0], [r(x[1]), r(y[1]), r(z[1]), 0], [r(x[2]), r(y[2]), r(z[2]), 0],
            [r(-dot(x, eye)), r(-dot(y, eye)), r(-dot(z, eye)), 1]]
    ys = 1 / math.tan(math.pi / 6)
    xs = ys * 0.75
    zn, zf = 0.1, 100.0
    proj = [[r(xs), 0, 0, 0], [0, r(ys), 0, 0], [0, 0, r(zf / (zf - zn)), 1], [0, 0, r(-zn * zf / (zf - zn)), 0]]
    return [{"op": "SetTransform", "state": "WORLD", "matrix": [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0, 0, 0, 1]]},
            {"op": "SetTransform", "state": "VIEW", "matrix": view},
            {"op": "SetTransform", "state": "PROJECTION", "matrix": proj}]


def lights(kind, count):
    cmds = []
    for i in range(count):
        a = 2 * math.pi * i / 8 + 0.3
        pos = [round(3 * math.cos(a), 4), round(1.5 - 0.4 * i, 4), round(3 * math.sin(a), 4)]
        to_origin = [round(-p / 3, 4) for p in pos]
        light = {"type": kind, "diffuse": COLOURS[i]}
        if kind == "DIRECTIONAL":
            light["direction"] = to_origin
        else:
            light.update({"position": pos, "range": SQRT_FLT_MAX, "attenuation0": 1})
            if kind == "SPOT":
                light.update({"direction": to_origin, "theta": 0.5, "phi": 1.0, "falloff": 1})
        cmds += [{"op": "SetLight", "index": i, "light": light}, {"op": "LightEnable", "index": i, "enable": True}]
    return cmds


def scene(kind, count):
    return {
        "description": f"Fixed function: {count} {kind.lower()} light(s), diffuse only"
                       + ("" if kind == "DIRECTIONAL" else ", attenuation (1, 0, 0), no range")
                       + ", FVF XYZ|NORMAL|TEX1 on a 48 x 32 sphere (written by make_scenes.py).",
        "buffers": {"ball": {"generator": "sphere", "index_order": "optimised", "slices": 48, "stacks": 32, "radius": 1.0,
                             "streams": {"mesh": [{"attribute": "position", "type": "FLOAT3"},
                                                  {"attribute": "normal", "type": "FLOAT3"},
                                                  {"attribute": "texcoord", "type": "FLOAT2"}]}}},
        "commands": [{"op": "SetVertexShader", "fvf": "D3DFVF_XYZ|D3DFVF_NORMAL|D3DFVF_TEX1"}] + camera() + lights(kind, count) + [
            {"op": "SetMaterial", "material": {"diffuse": [0.8, 0.8, 0.8, 1], "ambient": [0.2, 0.2, 0.2, 1]}},
            {"op": "SetRenderState", "state": "AMBIENT", "value": 1052688},
            {"op": "SetStreamSource", "stream": 0, "buffer": "ball.mesh", "stride": 32},
            {"op": "SetIndices", "buffer": "ball.indices"},
            {"op": "DrawIndexedPrimitive", "type": "trianglelist"}],
    }


if __name__ == "__main__":
    for kind in ("DIRECTIONAL", "POINT", "SPOT"):
        for count in range(1, 9):
            with open(os.path.join(HERE, f"{kind.lower()}_{count}.json"), "w") as f:
                f.write(json.dumps(scene(kind, count), indent=1) + "\n")

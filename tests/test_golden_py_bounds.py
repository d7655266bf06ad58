#!/usr/bin/env python3
"""ctest "python: bounds ...": the Python module (model/capi/vpsim_golden.py) refuses integers its
C types cannot hold, instead of letting ctypes wrap them to 32 bits (const_count=2**32+96 was 96,
vertex index 2**32 fetched vertex 0), and passes on the library's own refusals. One case per
function group (the argument); the library comes from $VPSIM_GOLDEN_LIB.

usage: test_golden_py_bounds.py SRC decode|stepper|timing|event_text|fetch|shader"""
import os
import struct
import sys

src, case = sys.argv[1:3]
sys.path.insert(0, os.path.join(src, "model", "capi"))
import vpsim_golden as g  # noqa: E402

failures = []
DECL = [0x20000000, 0x40020000, 0xFFFFFFFF]  # STREAM(0), REG(0, FLOAT3), END
CODE = [0xFFFE0101, 0x00000002, 0xC00F0000, 0x90E40000, 0xA0E40001, 0x0000FFFF]  # add oPos, v0, c1


def refused(what, exc, words, f, *args, **kw):
    """f(*args, **kw) must raise `exc` with every one of `words` in its message."""
    try:
        f(*args, **kw)
    except exc as e:
        missing = [w for w in words if w not in str(e)]
        if missing:
            failures.append("%s: %s(%r) does not name %r" % (what, type(e).__name__, str(e), missing))
        return
    except Exception as e:  # noqa: BLE001 - any other outcome is the failure reported
        failures.append("%s: raised %s(%s), expected %s" % (what, type(e).__name__, e, exc.__name__))
        return
    failures.append("%s: accepted, expected %s" % (what, exc.__name__))


def check(what, cond):
    if not cond:
        failures.append(what)


def decode():
    refused("const_count 2**32+96", ValueError, ["const_count", str(2**32 + 96)], g.decode, DECL, const_count=2**32 + 96)
    refused("const_count 2**24", ValueError, ["const_count"], g.decode, DECL, const_count=2**24)
    refused("const_count 0", ValueError, ["const_count"], g.decode, DECL, const_count=0)
    refused("max_length 2**32+4096", ValueError, ["max_length"], g.decode, DECL, max_length=2**32 + 4096)
    refused("token 2**32", ValueError, ["tokens[1]", str(2**32)], g.decode, [DECL[0], 2**32, DECL[2]])
    refused("token -1", ValueError, ["tokens[2]"], g.decode, [DECL[0], DECL[1], -1])
    refused("token 1.0", TypeError, ["tokens[0]"], g.decode, [1.0])
    check("decode at the limits", len(g.decode(DECL, const_count=2**24 - 1, max_length=2**24 - 1)) == 3)


def stepper():
    refused("Stepper const_count 2**32+96", ValueError, ["const_count"], g.Stepper, const_count=2**32 + 96)
    refused("Stepper max_length -1", ValueError, ["max_length"], g.Stepper, max_length=-1)
    s = g.Stepper()
    refused("step token 2**32", ValueError, ["token", str(2**32)], s.step, 2**32)
    check("step STREAM(0)", [e.kind for e in s.step(DECL[0])] == [0])


def timing():
    refused("Timing const_count 2**32+96", ValueError, ["const_count"], g.Timing, const_count=2**32 + 96)
    t = g.Timing()
    refused("tick token 2**32", ValueError, ["token"], t.tick, True, 2**32, False, False, True)
    check("tick accepts a token", t.tick(True, DECL[0], False, False, True))


def event_text():
    ev = g.decode(DECL)[1]
    check("event_text", g.event_text(ev) == "ELEMENT stream=0 offset=0 type=FLOAT3 v0")
    refused("stream 256", ValueError, ["event stream", "256"], g.event_text, ev._replace(stream=256))
    refused("kind 8", ValueError, ["event kind"], g.event_text, ev._replace(kind=8))
    refused("reg 2**16", ValueError, ["event reg"], g.event_text, ev._replace(reg=2**16))
    refused("data 2**32", ValueError, ["event data[0]"], g.event_text, ev._replace(data=(2**32, 0, 0, 0)))


def fetch():
    vb = struct.pack("<3f", 1, 2, 3) + struct.pack("<3f", 4, 5, 6)
    check("fetch vertex 1", g.fetch_vertex(DECL, {0: (vb, 12)}, 1)[0][:3] == [4.0, 5.0, 6.0])
    refused("index 2**32", ValueError, ["index", str(2**32)], g.fetch_vertex, DECL, {0: (vb, 12)}, 2**32)
    refused("index -1", ValueError, ["index"], g.fetch_vertex, DECL, {0: (vb, 12)}, -1)
    refused("stream 16", ValueError, ["stream number", "16"], g.fetch_vertex, DECL, {16: (vb, 12)}, 0)
    refused("stream -1", ValueError, ["stream number"], g.fetch_vertex, DECL, {-1: (vb, 12)}, 0)
    refused("stride 2**32+12", ValueError, ["stride"], g.fetch_vertex, DECL, {0: (vb, 2**32 + 12)}, 1)
    refused("vertex past the buffer", g.GoldenError, ["past the end"], g.fetch_vertex, DECL, {0: (vb, 12)}, 2)


def shader():
    refused("bytecode token 2**32", ValueError, ["bytecode[1]"], g.Shader, [CODE[0], 2**32 + 2] + CODE[2:])
    s = g.Shader(CODE)
    c = [[0, 0, 0, 0], [10, 20, 30, 40]]
    check("run", s.run([[1, 2, 3, 4]], c)["pos"] == [11.0, 22.0, 33.0, 44.0])
    refused("97 constants", g.GoldenError, ["const_count 97", "96"], s.run, [[1, 2, 3, 4]], c + [[0, 0, 0, 0]] * 95)
    refused("17 inputs", ValueError, ["inputs"], s.run, [[0, 0, 0, 0]] * 17)
    refused("5 components", ValueError, ["constants[0]"], s.run, [[1, 2, 3, 4]], [[1, 2, 3, 4, 5]])


cases = {"decode": decode, "stepper": stepper, "timing": timing, "event_text": event_text, "fetch": fetch,
         "shader": shader}
if case not in cases:
    sys.exit("usage: test_golden_py_bounds.py SRC " + "|".join(cases))
cases[case]()
for f in failures:
    print("FAILED: " + f)
print("%s: %s (%d failures)" % (case, "FAILED" if failures else "passed", len(failures)))
sys.exit(1 if failures else 0)

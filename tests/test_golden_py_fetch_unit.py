#!/usr/bin/env python3
"""ctests "python: fetch unit: ...": vpsim_golden.FetchUnit (model/capi/vpsim_golden.py over
vpsim_fetch_unit_*). usage: test_golden_py_fetch_unit.py SRC values|errors
  values  out_regs equal fetch_vertex's bits on random memory (seed $VPSIM_TEST_SEED, default 3),
          the layout bus and out_loaded as the C ABI gives them, a memory function instead of bytes
  errors  a malformed declaration, too many elements, memory without the bytes and an exception in
          the memory function are raised, not crashed on"""
import os
import random
import struct
import sys

src, case = sys.argv[1:3]
sys.path.insert(0, os.path.join(src, "model", "capi"))
import vpsim_golden as g  # noqa: E402

# STREAM 0: FLOAT3 v0, SHORT4 v3; STREAM 2: D3DCOLOR v5, UBYTE4 v1, FLOAT2 v7, SHORT2 v2, FLOAT1 v4, FLOAT4 v6
DECL = [0x20000000, 0x40020000, 0x40070003, 0x20000002, 0x40040005, 0x40050001, 0x40010007, 0x40060002, 0x40000004,
        0x40030006, 0xFFFFFFFF]


def bits(f):
    return struct.unpack("<I", struct.pack("<f", f))[0]


def values():
    seed = int(os.environ.get("VPSIM_TEST_SEED", "3"))
    print("seed %d (VPSIM_TEST_SEED=%d replays it)" % (seed, seed))
    rng = random.Random(seed)
    mem = bytearray(rng.getrandbits(8) for _ in range(8192))
    for _ in range(64):  # NaN, -0, short -32768, byte 255
        a = 4 * rng.randrange(2048)
        mem[a:a + 4] = rng.choice([b"\x01\x00\xc0\x7f", b"\x00\x00\x00\x80", b"\x00\x80\x00\x80", b"\xff\xff\xff\xff"])
    u = g.FetchUnit(DECL)
    assert len(u.layout) == 8 and u.layout[1] == (7 | 3 << 3 | 12 << 12) and u.loaded == 0xFF, (u.layout, u.loaded)
    start = 0x40000
    base, stride = {0: start + 4, 2: start + 2048 + rng.randrange(16)}, {0: 24, 2: 40 + rng.randrange(9)}
    for index in range(40):
        regs = u.vertex(index, base, stride, bytes(mem), mem_addr=start)
        streams = {s: (bytes(mem[base[s] - start:]), stride[s]) for s in base}
        v = g.fetch_vertex(DECL, streams, index)
        want = [bits(v[r][c]) for r in range(16) for c in range(4)]
        assert regs == want, "vertex %d: %s | %s" % (index, regs, want)
    # The same vertex through a memory function.
    fn = u.vertex(7, base, stride, lambda a, n: bytes(mem[a - start:a - start + n]))
    assert fn == u.vertex(7, base, stride, bytes(mem), mem_addr=start)
    print("40 vertices equal fetch_vertex's bits; layout %s, loaded 0x%x" % ([hex(w) for w in u.layout], u.loaded))


def raises(exc, text, f):
    try:
        f()
    except exc as e:
        assert text in str(e), "%r does not name %r" % (str(e), text)
        print("%s: %s" % (exc.__name__, e))
        return
    raise AssertionError("no %s (%s)" % (exc.__name__, text))


def errors():
    raises(g.GoldenError, "error D1 (reserved-token-type)", lambda: g.FetchUnit([0xDEADBEEF, 0xFFFFFFFF]))
    raises(g.GoldenError, "more than 4 elements", lambda: g.FetchUnit(DECL, max_elems=4))
    raises(ValueError, "max_elems: 64 is outside", lambda: g.FetchUnit(DECL, max_elems=64))
    u = g.FetchUnit(DECL)
    raises(g.GoldenError, "element 1 (v0", lambda: u.vertex(0, {0: 0, 2: 0}, {}, b"\0" * 8))
    raises(ValueError, "index: 4294967296 is outside", lambda: u.vertex(2**32, {}, {}, b""))
    raises(ValueError, "base stream: 16 is outside", lambda: u.vertex(0, {16: 0}, {}, b""))

    def broken(addr, n):
        raise KeyError("no byte at 0x%x" % addr)
    raises(KeyError, "no byte at 0x0", lambda: u.vertex(0, {}, {}, broken))
    print("every refusal raised")


{"values": values, "errors": errors}[case]()
print("%s: passed" % case)

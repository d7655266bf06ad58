#!/usr/bin/env python3
"""ctest "python: ...": a Python testbench of the declaration decoder whose expectations come only
from vpsim's golden model through the Python module (model/capi/vpsim_golden.py, ctypes over
libvpsim_golden_c.so). The design under test is Verilated by vpsim's --rtl cache (model.so, the C ABI
of model/rtl/user_rtl.cpp) and driven from Python cycle by cycle with random back-pressure; its pins are
compared with the golden cycle contract (vpsim_golden.Timing) every cycle and its events with the
golden decoder (vpsim_golden.decode). rtl/decl_decoder.sv must pass, the planted bug of
decl_decoder_bug.sv (tests/rtl_variants/decl_decoder_bug.patch, applied by the build into VARIANTS)
must be caught.

usage: test_golden_py.py VPSIM SRC WORK CACHE VARIANTS   (seed: $VPSIM_TEST_SEED, default 4)"""
import ctypes
import json
import os
import random
import subprocess
import sys

vpsim, src, work, cache, variants = sys.argv[1:6]
sys.path.insert(0, os.path.join(src, "model", "capi"))
import vpsim_golden as g  # noqa: E402

seed = os.environ.get("VPSIM_TEST_SEED", "4")
seed = random.SystemRandom().randrange(1 << 31) if seed == "random" else int(seed)
print("seed %d (VPSIM_TEST_SEED=%d replays it)" % (seed, seed))
os.makedirs(work, exist_ok=True)

# The stimulus: the corpus and 1500 random arrays of vpsim, exported.
dump = os.path.join(work, "dump")
subprocess.run([vpsim, "xcheck", "--dump-arrays", dump, "--random", "1500", "--seed", str(seed)], check=True,
               stdout=subprocess.DEVNULL)
arrays = []
with open(os.path.join(dump, "arrays.txt")) as f:
    lines = iter(f.read().split("\n"))
    for line in lines:
        if not line.startswith("A "):
            continue
        w = line.split()
        n, lenient, nev = int(w[1]), int(w[2]) != 0, int(w[3])
        toks = [int(next(lines).split()[1], 16) for _ in range(n)]
        for _ in range(nev):
            next(lines)
        arrays.append((toks, lenient, w[6]))


def build(sv):
    out = subprocess.run([vpsim, "xcheck", "--rtl", sv, "--rtl-cache", cache, "--random", "0", "--no-corpus", "--json"],
                         check=False, capture_output=True, text=True)
    j = json.loads(out.stdout[out.stdout.index("{"):])
    return os.path.join(j["rtl_build"], "model.so")


def check(sv):
    """Errors of the design on every array: (cycle errors, event errors, arrays, cycles, first message)."""
    so = ctypes.CDLL(build(sv))
    so.vpsim_rtl_new.restype = ctypes.c_void_p
    for name in ("vpsim_rtl_reset", "vpsim_rtl_clock", "vpsim_rtl_delete"):
        getattr(so, name).argtypes = [ctypes.c_void_p]
    so.vpsim_rtl_inputs.restype = ctypes.c_uint
    so.vpsim_rtl_inputs.argtypes = [ctypes.c_void_p] + [ctypes.c_uint, ctypes.c_uint32, ctypes.c_uint, ctypes.c_uint,
                                                        ctypes.c_uint]
    so.vpsim_rtl_event.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
    dut = so.vpsim_rtl_new()
    so.vpsim_rtl_reset(dut)
    f = (ctypes.c_uint32 * 9)()
    rng = random.Random(seed)
    timing = g.Timing()
    cycle_errors = event_errors = cycles = 0
    first = ""
    for toks, lenient, origin in arrays:
        pos, done, got, limit = 0, False, [], 64 + 40 * len(toks) + len(toks) ** 2 // 4
        for c in range(limit):
            if pos == len(toks) and done:
                break
            in_valid = pos < len(toks) and rng.random() < 0.9
            out_ready = rng.random() < 0.7
            tok = toks[pos] if in_valid else 0
            last = in_valid and pos + 1 == len(toks)
            o = so.vpsim_rtl_inputs(dut, int(in_valid), tok, int(last), int(lenient), int(out_ready))
            so.vpsim_rtl_event(dut, f)
            ev = g.Event(f[0], f[1], f[2], f[3], f[4], (f[5], f[6], f[7], f[8]))
            in_ready, out_valid = bool(o & 1), bool(o & 2)
            want = (timing.in_ready(out_ready), timing.out_valid(), timing.out())
            if (want[0], want[1]) != (in_ready, out_valid) or (out_valid and want[2] != ev):
                cycle_errors += 1
                if not first:
                    first = "%s (%s): cycle %d: in_ready model %d | rtl %d; out_valid model %d | rtl %d; event model %s | rtl %s" % (
                        origin, "lenient" if lenient else "strict", c, want[0], in_ready, want[1], out_valid,
                        g.event_text(want[2]), g.event_text(ev))
            timing.tick(in_valid, tok, last, lenient, out_ready)
            if out_valid and out_ready:
                got.append(ev)
                done = done or ev.kind in (6, 7)
            if in_valid and in_ready:
                pos += 1
            so.vpsim_rtl_clock(dut)
            cycles += 1
        if got != g.decode(toks, lenient):
            event_errors += 1
    so.vpsim_rtl_delete(dut)
    return cycle_errors, event_errors, len(arrays), cycles, first


ok = True
for sv, want_pass in ((os.path.join(src, "rtl", "decl_decoder.sv"), True),
                      (os.path.join(variants, "decl_decoder_bug.sv"), False)):
    ce, ee, n, cycles, first = check(sv)
    print("%s: %d arrays, %d cycles: %d cycle errors, %d arrays with other events than the golden decoder's%s" % (
        os.path.basename(sv), n, cycles, ce, ee, ("; first: " + first) if first else ""))
    if want_pass != (ce == 0 and ee == 0):
        print("FAILED: %s should %s" % (os.path.basename(sv), "pass" if want_pass else "be caught"))
        ok = False
print("golden library %s, ABI %d" % (g.version(), g.ABI))
sys.exit(0 if ok else 1)

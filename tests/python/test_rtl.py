"""vpsim.rtl (docs/dpi.md, "The RTL model's C functions"): the decoder's model.so driven from
Python. The design is Verilated once into $VPSIM_RTL_CACHE (the build's workflow RTL cache); the
expectations come from the golden library's Python module (model/capi/vpsim_golden.py over
$VPSIM_GOLDEN_LIB). Random back-pressure: seed $VPSIM_TEST_SEED (default 5), printed."""
import os
import random
import sys

import pytest

from vpsim import rtl


def _golden(src):
    sys.path.insert(0, os.path.join(src, "model", "capi"))
    import vpsim_golden
    return vpsim_golden


def _arrays(cli, tmp_path, seed):
    dump = tmp_path / "dump"
    cli("xcheck", "--dump-arrays", str(dump), "--random", "300", "--seed", str(seed))
    arrays, lines = [], iter((dump / "arrays.txt").read_text().split("\n"))
    for line in lines:
        if line.startswith("A "):
            w = line.split()
            toks = [int(next(lines).split()[1], 16) for _ in range(int(w[1]))]
            for _ in range(int(w[3])):
                next(lines)
            arrays.append((toks, w[2] != "0"))
    return arrays


def test_decoder_pins_equal_the_golden_cycle_contract(cli, src, tmp_path):
    g = _golden(src)
    seed = int(os.environ.get("VPSIM_TEST_SEED", "5"))
    print(f"seed {seed} (VPSIM_TEST_SEED={seed} replays it)")
    arrays = _arrays(cli, tmp_path, seed)
    rng = random.Random(seed)
    cycles = events = 0
    with rtl.DeclDecoderRtl.build(os.path.join(src, "rtl", "decl_decoder.sv"), cache=os.environ["VPSIM_RTL_CACHE"]) as dut:
        assert dut.features == {"coverage": False, "trace": False}
        timing = g.Timing()
        for toks, lenient in arrays:
            pos, got = 0, []
            while not (pos == len(toks) and got and got[-1][0] in (6, 7)):
                in_valid = pos < len(toks) and rng.random() < 0.9
                out_ready = rng.random() < 0.7
                tok = toks[pos] if in_valid else 0
                last = in_valid and pos + 1 == len(toks)
                in_ready, out_valid = dut.inputs(in_valid, tok, last, lenient, out_ready)
                ev = dut.event()
                assert (in_ready, out_valid) == (timing.in_ready(out_ready), timing.out_valid()), f"cycle {cycles}"
                if out_valid:
                    assert ev == timing.out(), f"cycle {cycles}: {g.event_text(timing.out())}"
                timing.tick(in_valid, tok, last, lenient, out_ready)
                if out_valid and out_ready:
                    got.append(ev)
                pos += in_valid and in_ready
                dut.clock()
                cycles += 1
                assert cycles < 2_000_000
            assert got == g.decode(toks, lenient)
            events += len(got)
        assert not dut.error()
    print(f"{len(arrays)} arrays, {cycles} cycles, {events} events equal the golden model's")
    assert len(arrays) > 300 and events > 1000


def test_a_closed_design_and_out_of_range_inputs_raise(src):
    with rtl.DeclDecoderRtl.build(os.path.join(src, "rtl", "decl_decoder.sv"), cache=os.environ["VPSIM_RTL_CACHE"]) as dut:
        with pytest.raises(ValueError, match="token: 4294967296 is outside"):
            dut.inputs(1, 2**32, 0, 0, 1)
    with pytest.raises(rtl.RtlError, match="closed"):
        dut.inputs(1, 0x20000000, 0, 0, 1)
    dut.close()  # twice is harmless


def test_a_design_that_does_not_build_raises_with_vpsim_message(tmp_path):
    missing = tmp_path / "no_such_design.sv"
    with pytest.raises(rtl.RtlError, match="no_such_design.sv"):
        rtl.build_model(missing, cache=tmp_path / "cache")


def test_a_library_that_is_not_a_decoder_model_is_refused():
    with pytest.raises(rtl.RtlError, match="not a decoder model.so"):
        rtl.DeclDecoderRtl(os.environ["VPSIM_GOLDEN_LIB"])

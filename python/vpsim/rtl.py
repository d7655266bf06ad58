"""A Verilated RTL design driven pin by pin from Python (docs/dpi.md, "The RTL model's C
functions"): the shared object `model.so` that `vpsim xcheck --rtl FILE` builds into its RTL cache
holds the design behind a small C ABI; these classes load it with ctypes.

    dec = DeclDecoderRtl.build("rtl/decl_decoder.sv", cache="rtl_cache")   # or DeclDecoderRtl(path_to_model_so)
    dec.reset()
    in_ready, out_valid = dec.inputs(in_valid=1, token=0x20000000, last=0, lenient=0, out_ready=1)
    ev = dec.event()          # (kind, stream, value, code, reg, (x, y, z, w)): the out_* pins
    dec.clock()               # the rising edge

Per cycle: inputs() (clk low, the combinational outputs settle), read the outputs, clock(). A
handle is used by one thread at a time; close() (or a with-block) frees the design."""

import ctypes
import json
import os
import subprocess

__all__ = ["RtlError", "DeclDecoderRtl", "build_model"]


class RtlError(Exception):
    """A design that cannot be built or loaded, or a call on a closed design."""


def build_model(rtl, cache=None, params=(), vpsim=None):
    """Verilates `rtl` (and its `params`, e.g. ["MAX_LENGTH=64"]) through `vpsim xcheck --rtl` into
    the RTL cache `cache` (vpsim's default when None) and returns the path of its model.so (a
    cached design is not built again). Raises RtlError with vpsim's message when it cannot be built."""
    exe = vpsim or os.environ.get("VPSIM", "vpsim")
    cmd = [exe, "xcheck", "--rtl", os.fspath(rtl), "--random", "0", "--no-corpus", "--json"]
    if cache:
        cmd += ["--rtl-cache", os.fspath(cache)]
    for p in params:
        cmd += ["-G", p]
    out = subprocess.run(cmd, capture_output=True, text=True)
    try:
        j = json.loads(out.stdout[out.stdout.index("{"):])
        so = os.path.join(j["rtl_build"], "model.so")
    except (ValueError, KeyError):
        raise RtlError(f"{' '.join(cmd)}: exit {out.returncode}: {out.stderr.strip()}") from None
    if not os.path.isfile(so):
        raise RtlError(f"{so}: no model.so in the RTL cache entry")
    return so


class DeclDecoderRtl:
    """A declaration decoder design (the ports of rtl/decl_decoder.sv, docs/decl-decoder.md) loaded
    from its model.so: the functions vpsim_rtl_* (wrapper ABI 2)."""

    ABI = 2

    def __init__(self, model_so):
        try:
            so = ctypes.CDLL(os.fspath(model_so), mode=ctypes.RTLD_LOCAL)
        except OSError as e:
            raise RtlError(f"{model_so}: cannot load ({e})") from None
        try:
            so.vpsim_rtl_abi.restype = ctypes.c_int
            so.vpsim_rtl_features.restype = ctypes.c_int
            so.vpsim_rtl_new.restype = ctypes.c_void_p
            for name in ("vpsim_rtl_delete", "vpsim_rtl_reset", "vpsim_rtl_clock", "vpsim_rtl_trace_close"):
                getattr(so, name).argtypes = [ctypes.c_void_p]
                getattr(so, name).restype = None
            so.vpsim_rtl_inputs.argtypes = [ctypes.c_void_p, ctypes.c_uint, ctypes.c_uint32, ctypes.c_uint, ctypes.c_uint,
                                            ctypes.c_uint]
            so.vpsim_rtl_inputs.restype = ctypes.c_uint
            so.vpsim_rtl_pins.argtypes = [ctypes.c_void_p] + [ctypes.c_uint] * 3 + [ctypes.c_uint32] + [ctypes.c_uint] * 3
            so.vpsim_rtl_pins.restype = ctypes.c_uint
            so.vpsim_rtl_event.argtypes = [ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32)]
            so.vpsim_rtl_event.restype = None
            so.vpsim_rtl_error.argtypes = [ctypes.c_void_p, ctypes.c_int]
            so.vpsim_rtl_error.restype = ctypes.c_int
            for name in ("vpsim_rtl_coverage_write", "vpsim_rtl_trace_open"):
                getattr(so, name).argtypes = [ctypes.c_void_p, ctypes.c_char_p]
                getattr(so, name).restype = ctypes.c_int
        except AttributeError as e:
            raise RtlError(f"{model_so}: not a decoder model.so of vpsim ({e})") from None
        abi = so.vpsim_rtl_abi()
        if abi != self.ABI:
            raise RtlError(f"{model_so}: wrapper ABI {abi}, this class drives ABI {self.ABI} (build it again)")
        self._so = so
        self._fields = (ctypes.c_uint32 * 9)()
        self._dut = so.vpsim_rtl_new()
        self.reset()

    @classmethod
    def build(cls, rtl, cache=None, params=(), vpsim=None):
        """build_model(rtl, cache, params, vpsim), loaded."""
        return cls(build_model(rtl, cache, params, vpsim))

    def _handle(self):
        if self._dut is None:
            raise RtlError("the design is closed")
        return self._dut

    @staticmethod
    def _u32(name, v):
        v = int(v)
        if not 0 <= v <= 0xFFFFFFFF:
            raise ValueError(f"{name}: {v} is outside 0..4294967295")
        return v

    @property
    def features(self):
        """{"coverage": built with --coverage, "trace": built with waveforms}."""
        f = self._so.vpsim_rtl_features()
        return {"coverage": bool(f & 1), "trace": bool(f & 2)}

    def reset(self):
        """rst high for two cycles (in_valid, out_ready low), then low with clk low."""
        self._so.vpsim_rtl_reset(self._handle())

    def inputs(self, in_valid, token, last, lenient, out_ready):
        """Drives the inputs with clk low and evaluates: (in_ready, out_valid) of this cycle."""
        o = self._so.vpsim_rtl_inputs(self._handle(), int(bool(in_valid)), self._u32("token", token), int(bool(last)),
                                      int(bool(lenient)), int(bool(out_ready)))
        return bool(o & 1), bool(o & 2)

    def pins(self, clk, rst, in_valid, token, last, lenient, out_ready):
        """Every input including clk and rst as given, one evaluation: (in_ready, out_valid)."""
        o = self._so.vpsim_rtl_pins(self._handle(), int(bool(clk)), int(bool(rst)), int(bool(in_valid)),
                                    self._u32("token", token), int(bool(last)), int(bool(lenient)), int(bool(out_ready)))
        return bool(o & 1), bool(o & 2)

    def event(self):
        """The out_* pins now: (kind, stream, value, code, reg, (x, y, z, w)), equal to a
        vpsim_golden.Event with the same fields."""
        self._so.vpsim_rtl_event(self._handle(), self._fields)
        f = self._fields
        return (f[0], f[1], f[2], f[3], f[4], (f[5], f[6], f[7], f[8]))

    def clock(self):
        """The rising edge (clk high, one evaluation)."""
        self._so.vpsim_rtl_clock(self._handle())

    def error(self, clear=True):
        """True when an assertion of the design failed since the last clear."""
        return bool(self._so.vpsim_rtl_error(self._handle(), int(bool(clear))))

    def coverage_write(self, path):
        """Writes Verilator's coverage.dat (False when the design was not built with coverage)."""
        return bool(self._so.vpsim_rtl_coverage_write(self._handle(), os.fsencode(path)))

    def trace_open(self, path):
        """Starts an FST waveform (False when the design was not built with tracing)."""
        return bool(self._so.vpsim_rtl_trace_open(self._handle(), os.fsencode(path)))

    def trace_close(self):
        self._so.vpsim_rtl_trace_close(self._handle())

    def close(self):
        """Frees the design (final blocks run); later calls raise RtlError."""
        if self._dut is not None:
            self._so.vpsim_rtl_delete(self._dut)
            self._dut = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def __del__(self):
        try:
            self.close()
        except Exception:
            pass

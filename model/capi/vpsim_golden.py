"""vpsim's golden model from Python: ctypes over libvpsim_golden_c.so (model/capi/vpsim_golden.h).

For cocotb-style and other Python testbenches: the golden declaration decoder (a whole array, or
token by token), the decoder's cycle contract, the vertex fetch of one vertex (and as the fetch
unit's pins carry it: FetchUnit) and vs.1.1 execution of one vertex. The library is found through
$VPSIM_GOLDEN_LIB, else next to this file (../../lib or ../lib, the build and install layouts),
else the loader's search path.
Rules (types, ownership, threads): docs/dpi.md.

Arguments are checked before they reach the library: an integer outside the range of the C type
it is passed as (a token or index beyond 0..2**32-1, a stream number beyond 0..15) is a
ValueError naming the argument, never wrapped to 32 bits; a non-integer is a TypeError. Limits
the library checks (const_count beyond the D3D8 profile's 96 registers, ...) raise GoldenError
with its message.

    import vpsim_golden as g
    events = g.decode([0x20000000, 0x40020000, 0xFFFFFFFF])   # [Event(kind=0, ...), ...]
    print(g.event_text(events[1]))                            # ELEMENT stream=0 offset=0 type=FLOAT3 v0
"""
import ctypes
import numbers
import os
from collections import namedtuple

ABI = 1
MAX_DECODER_OPTION = 0xFFFFFF   # CONST_COUNT and MAX_LENGTH: 1 .. 2**24-1 (VPSIM_MAX_DECODER_OPTION)
SHADER_CONSTANTS = 96           # constant registers Shader.run takes (VPSIM_SHADER_CONSTANTS)
KINDS = ("STREAM", "ELEMENT", "SKIP", "TESS", "CONST", "EXT", "END", "ERROR")
Event = namedtuple("Event", "kind stream value code reg data")


class _CEvent(ctypes.Structure):
    _fields_ = [("kind", ctypes.c_uint32), ("stream", ctypes.c_uint32), ("value", ctypes.c_uint32),
                ("code", ctypes.c_uint32), ("reg", ctypes.c_uint32), ("data", ctypes.c_uint32 * 4)]


class _CStream(ctypes.Structure):
    _fields_ = [("data", ctypes.c_void_p), ("size", ctypes.c_size_t), ("stride", ctypes.c_uint32), ("bound", ctypes.c_int)]


class _CVertexOut(ctypes.Structure):
    _fields_ = [("pos", ctypes.c_float * 4), ("d0", ctypes.c_float * 4), ("d1", ctypes.c_float * 4),
                ("fog", ctypes.c_float), ("pts", ctypes.c_float), ("t", (ctypes.c_float * 4) * 8)]


def _find_library():
    env = os.environ.get("VPSIM_GOLDEN_LIB")
    if env:
        return env
    here = os.path.dirname(os.path.abspath(__file__))
    for rel in ("../../../lib", "../../lib", "../lib", "lib", "../../build/lib"):
        p = os.path.join(here, rel, "libvpsim_golden_c.so")
        if os.path.exists(p):
            return p
    return "libvpsim_golden_c.so"


_lib = ctypes.CDLL(_find_library())
_u32, _int, _sz, _p = ctypes.c_uint32, ctypes.c_int, ctypes.c_size_t, ctypes.c_void_p
_EP = ctypes.POINTER(_CEvent)


def _sig(name, res, *args):
    f = getattr(_lib, name)
    f.restype, f.argtypes = res, list(args)
    return f


_abi = _sig("vpsim_golden_abi", _int)
if _abi() != ABI:
    raise ImportError("libvpsim_golden_c ABI %d, this module's %d" % (_abi(), ABI))
_version = _sig("vpsim_golden_version", ctypes.c_char_p)
_text = _sig("vpsim_event_text", _int, _EP, ctypes.c_char_p, _sz)
_st_new = _sig("vpsim_decl_stepper_new", _p, _u32, _u32)
_st_free = _sig("vpsim_decl_stepper_free", None, _p)
_st_reset = _sig("vpsim_decl_stepper_reset", None, _p)
_st_step = _sig("vpsim_decl_stepper_step", _int, _p, _u32, _int, _int, _EP)
_decode = _sig("vpsim_decl_decode", ctypes.c_long, ctypes.POINTER(_u32), _sz, _int, _u32, _u32, _EP, _sz)
_tm_new = _sig("vpsim_decl_timing_new", _p, _u32, _u32)
_tm_free = _sig("vpsim_decl_timing_free", None, _p)
_tm_reset = _sig("vpsim_decl_timing_reset", None, _p)
_tm_in_ready = _sig("vpsim_decl_timing_in_ready", _int, _p, _int)
_tm_out_valid = _sig("vpsim_decl_timing_out_valid", _int, _p)
_tm_out = _sig("vpsim_decl_timing_out", None, _p, _EP)
_tm_tick = _sig("vpsim_decl_timing_tick", _int, _p, _int, _u32, _int, _int, _int)
_fetch = _sig("vpsim_fetch_vertex", _int, ctypes.POINTER(_u32), _sz, ctypes.POINTER(_CStream), _u32,
              ctypes.POINTER(ctypes.c_float * 4), ctypes.c_char_p, _sz)
_MemRead = ctypes.CFUNCTYPE(_int, _p, _u32, _u32, ctypes.POINTER(ctypes.c_uint8))
_fu_new = _sig("vpsim_fetch_unit_new", _p, ctypes.POINTER(_u32), _sz, _u32, ctypes.c_char_p, _sz)
_fu_free = _sig("vpsim_fetch_unit_free", None, _p)
_fu_layout = _sig("vpsim_fetch_unit_layout", _int, _p, ctypes.POINTER(_u32), _sz)
_fu_loaded = _sig("vpsim_fetch_unit_loaded", _u32, _p)
_fu_vertex = _sig("vpsim_fetch_unit_vertex", _int, _p, ctypes.POINTER(_u32), ctypes.POINTER(_u32), _u32, _MemRead, _p,
                  ctypes.POINTER(_u32), ctypes.c_char_p, _sz)
_sh_new = _sig("vpsim_shader_new", _p, ctypes.POINTER(_u32), _sz, ctypes.c_char_p, _sz)
_sh_free = _sig("vpsim_shader_free", None, _p)
_sh_run = _sig("vpsim_shader_run", _int, _p, ctypes.POINTER(ctypes.c_float * 4), ctypes.POINTER(ctypes.c_float * 4), _u32,
               ctypes.POINTER(_CVertexOut), ctypes.c_char_p, _sz)


class GoldenError(RuntimeError):
    pass


def version():
    return _version().decode()


def _ranged(value, what, lo, hi):
    """`value` as an int in lo..hi, else TypeError / ValueError naming `what`."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral):
        raise TypeError("%s: expected an integer, found %s %r" % (what, type(value).__name__, value))
    v = int(value)
    if not lo <= v <= hi:
        raise ValueError("%s: %d is outside %d..%d" % (what, v, lo, hi))
    return v


def _word(value, what):
    return _ranged(value, what, 0, 0xFFFFFFFF)


def _options(const_count, max_length):
    return (_ranged(const_count, "const_count", 1, MAX_DECODER_OPTION),
            _ranged(max_length, "max_length", 1, MAX_DECODER_OPTION))


def _event(c):
    return Event(c.kind, c.stream, c.value, c.code, c.reg, tuple(c.data))


def _cevent(e):
    c = _CEvent(_ranged(e.kind, "event kind", 0, 7), _ranged(e.stream, "event stream", 0, 0xFF),
                _word(e.value, "event value"), _ranged(e.code, "event code", 0, 0xFF),
                _ranged(e.reg, "event reg", 0, 0xFFFF))
    if len(e.data) != 4:
        raise ValueError("event data: expected 4 words, found %d" % len(e.data))
    for i in range(4):
        c.data[i] = _word(e.data[i], "event data[%d]" % i)
    return c


def event_text(e):
    """The event in words, as vpsim prints it."""
    c = _cevent(e)
    n = _text(ctypes.byref(c), None, 0)
    if n < 0:
        raise GoldenError("vpsim_event_text refused the event %r" % (e,))
    buf = ctypes.create_string_buffer(n + 1)
    _text(ctypes.byref(c), buf, n + 1)
    return buf.value.decode()


def _tokens(tokens, what="tokens"):
    return (_u32 * max(1, len(tokens)))(*[_word(t, "%s[%d]" % (what, i)) for i, t in enumerate(tokens)])


def decode(tokens, lenient=False, const_count=96, max_length=4096):
    """Every event of decoding the array (its last token marked last)."""
    const_count, max_length = _options(const_count, max_length)
    arr = _tokens(tokens)
    cap = len(tokens) + 4
    while True:
        out = (_CEvent * cap)()
        n = _decode(arr, len(tokens), int(lenient), const_count, max_length, out, cap)
        if n < 0:
            raise GoldenError("vpsim_decl_decode: bad argument (const_count %d, max_length %d)" % (const_count, max_length))
        if n <= cap:
            return [_event(out[i]) for i in range(n)]
        cap = n


class Stepper:
    """The golden decoder token by token: step() returns the 0, 1 or 2 events of one token."""

    def __init__(self, const_count=96, max_length=4096):
        self._h = _st_new(*_options(const_count, max_length))
        if not self._h:
            raise GoldenError("bad const_count %d or max_length %d" % (const_count, max_length))
        self._out = (_CEvent * 2)()

    def step(self, token, last=False, lenient=False):
        n = _st_step(self._h, _word(token, "token"), int(bool(last)), int(bool(lenient)), self._out)
        return [_event(self._out[i]) for i in range(n)]

    def reset(self):
        _st_reset(self._h)

    def __del__(self):
        if getattr(self, "_h", None):
            _st_free(self._h)
            self._h = None


class Timing:
    """The decoder's cycle contract: read in_ready(out_ready), out_valid(), out(); then tick() at the edge."""

    def __init__(self, const_count=96, max_length=4096):
        self._h = _tm_new(*_options(const_count, max_length))
        if not self._h:
            raise GoldenError("bad const_count %d or max_length %d" % (const_count, max_length))

    def in_ready(self, out_ready):
        return bool(_tm_in_ready(self._h, int(out_ready)))

    def out_valid(self):
        return bool(_tm_out_valid(self._h))

    def out(self):
        c = _CEvent()
        _tm_out(self._h, ctypes.byref(c))
        return _event(c)

    def tick(self, in_valid, token, last, lenient, out_ready):
        return bool(_tm_tick(self._h, int(bool(in_valid)), _word(token, "token"), int(bool(last)), int(bool(lenient)),
                             int(bool(out_ready))))

    def reset(self):
        _tm_reset(self._h)

    def __del__(self):
        if getattr(self, "_h", None):
            _tm_free(self._h)
            self._h = None


def fetch_vertex(declaration, streams, index):
    """v0..v15 (lists of 4 floats) of vertex `index`; streams: {stream number: (bytes, stride)}."""
    cs = (_CStream * 16)()
    keep = []
    index = _word(index, "index")
    for s, (data, stride) in streams.items():
        s = _ranged(s, "stream number", 0, 15)
        buf = ctypes.create_string_buffer(bytes(data), max(1, len(data)))
        keep.append(buf)
        cs[s] = _CStream(ctypes.cast(buf, _p), len(data), _word(stride, "stream %d stride" % s), 1)
    v = ((ctypes.c_float * 4) * 16)()
    err = ctypes.create_string_buffer(512)
    if _fetch(_tokens(declaration, "declaration"), len(declaration), cs, index, v, err, 512) != 0:
        raise GoldenError(err.value.decode())
    return [list(v[r]) for r in range(16)]


class FetchUnit:
    """The vertex fetch unit as its pins carry it (rtl/vertex_fetch.sv; vpsim_fetch_unit_*): a
    declaration (decoded lenient) with its layout bus (`layout`: lay_elems words, len = lay_count)
    and `loaded` (out_loaded); vertex() gives out_regs as 64 words (v_r component c at 4r + c)."""

    def __init__(self, declaration, max_elems=20):
        err = ctypes.create_string_buffer(512)
        self._h = _fu_new(_tokens(declaration, "declaration"), len(declaration), _ranged(max_elems, "max_elems", 1, 63),
                          err, 512)
        if not self._h:
            raise GoldenError(err.value.decode())
        n = _fu_layout(self._h, None, 0)
        words = (_u32 * max(1, n))()
        _fu_layout(self._h, words, n)
        self.layout = list(words)[:n]
        self.loaded = _fu_loaded(self._h)

    def vertex(self, index, base, stride, memory, mem_addr=0):
        """out_regs of vertex `index`; base and stride: {stream: value}; memory: bytes at byte
        address mem_addr (addresses mod 2**32), or a function (addr, n) -> n bytes or None."""
        b, st = (_u32 * 16)(), (_u32 * 16)()
        for what, src, dst in (("base", base, b), ("stride", stride, st)):
            for s, v in src.items():
                dst[_ranged(s, "%s stream" % what, 0, 15)] = _word(v, "%s[%d]" % (what, s))
        if callable(memory):
            fetch = memory
        else:
            image, start = bytes(memory), _word(mem_addr, "mem_addr")

            def fetch(addr, n):
                off = (addr - start) & 0xFFFFFFFF
                return image[off:off + n] if off + n <= len(image) else None
        failure = []

        def read(_ctx, addr, n, out):
            try:
                data = fetch(addr, n)
                if data is None or len(data) != n:
                    return 0
                ctypes.memmove(out, bytes(data), n)
                return 1
            except Exception as e:  # raised again after the call: ctypes cannot carry it through C
                failure.append(e)
                return 0
        regs = (_u32 * 64)()
        err = ctypes.create_string_buffer(512)
        rc = _fu_vertex(self._h, b, st, _word(index, "index"), _MemRead(read), None, regs, err, 512)
        if failure:
            raise failure[0]
        if rc != 0:
            raise GoldenError(err.value.decode())
        return list(regs)

    def __del__(self):
        if getattr(self, "_h", None):
            _fu_free(self._h)
            self._h = None


def _vec4(x, what):
    if len(x) > 4:
        raise ValueError("%s: %d components, more than 4" % (what, len(x)))
    return (ctypes.c_float * 4)(*x)


class Shader:
    """A validated vs.1.1 shader (its bytecode, version token to END); run() executes one vertex."""

    def __init__(self, bytecode):
        err = ctypes.create_string_buffer(512)
        self._h = _sh_new(_tokens(bytecode, "bytecode"), len(bytecode), err, 512)
        if not self._h:
            raise GoldenError(err.value.decode())

    def run(self, inputs, constants=()):
        if len(inputs) > 16:
            raise ValueError("inputs: %d registers, more than v0..v15" % len(inputs))
        v = ((ctypes.c_float * 4) * 16)()
        for r, x in enumerate(inputs):
            v[r] = _vec4(x, "inputs[%d]" % r)
        k = ((ctypes.c_float * 4) * max(1, len(constants)))()
        for r, x in enumerate(constants):
            k[r] = _vec4(x, "constants[%d]" % r)
        o = _CVertexOut()
        err = ctypes.create_string_buffer(512)
        if _sh_run(self._h, v, k, len(constants), ctypes.byref(o), err, 512) != 0:
            raise GoldenError(err.value.decode())
        return {"pos": list(o.pos), "d0": list(o.d0), "d1": list(o.d1), "fog": o.fog, "pts": o.pts,
                "t": [list(o.t[i]) for i in range(8)]}

    def __del__(self):
        if getattr(self, "_h", None):
            _sh_free(self._h)
            self._h = None

/* vpsim's D3D8 recorder (docs/capture.md): a d3d8.dll that Wine loads instead of its own
 * (WINEDLLOVERRIDES="d3d8=n,b", the DLL beside the program). It loads the real d3d8.dll from the
 * system directory, patches the method entries of the real objects' vtables in place (objects of
 * our own wrapping Wine's would be refused when handed back to Wine), and writes every call that
 * reaches the vertex pipeline or its state to VPSIM_CAPTURE_FILE, one frame record per Present.
 * A per-thread depth counter keeps the calls Wine makes to its own methods out of the capture.
 * Built with mingw-w64 by capture/CMakeLists.txt. */
#include <windows.h>
#include <d3d8.h>
#include <stdlib.h>
#include <string.h>

#include "model/capture/capture_format.h"
#include "proxy_shots.h"

/* ---- the capture stream ---- */
static CRITICAL_SECTION g_lock;
static HANDLE g_file = INVALID_HANDLE_VALUE;
static int g_enabled;             /* VPSIM_CAPTURE_FILE is set and could be opened */
static unsigned char* g_buf;      /* the current frame's payload */
static size_t g_len, g_cap;
static uint32_t g_calls, g_frame;
static uint32_t g_last_frame = 0xFFFFFFFFu;
static __thread int t_depth;      /* > 0 while inside a recorded method on this thread */
static __thread uint32_t t_hr;    /* the HRESULT of the call being recorded (format version 3) */

static void put(const void* p, size_t n) {
    if (!n) return;
    if (g_len + n > g_cap) {
        size_t c = g_cap ? g_cap : 1 << 16;
        while (c < g_len + n) c *= 2;
        unsigned char* b = (unsigned char*)realloc(g_buf, c);
        if (!b) { g_enabled = 0; return; }
        g_buf = b;
        g_cap = c;
    }
    if (p) memcpy(g_buf + g_len, p, n);
    else memset(g_buf + g_len, 0, n);  /* a refused call's NULL argument (SetMaterial(NULL), ...): zeros */
    g_len += n;
}

static void put32(uint32_t v) { put(&v, 4); }

/* One call record: the op, the argument bytes, the call's HRESULT (t_hr), then up to three pieces
 * of arguments. */
static void rec(uint16_t op, const void* a, uint32_t an, const void* b, uint32_t bn, const void* c, uint32_t cn) {
    if (!g_enabled) return;
    EnterCriticalSection(&g_lock);
    uint16_t h[2] = {op, 0};
    put(h, 4);
    put32(an + bn + cn);
    put32(t_hr);
    put(a, an);
    put(b, bn);
    put(c, cn);
    ++g_calls;
    LeaveCriticalSection(&g_lock);
}

static void write_all(const void* p, DWORD n) {
    DWORD done = 0;
    while (n && WriteFile(g_file, p, n, &done, NULL) && done) {
        p = (const char*)p + done;
        n -= done;
    }
}

static uint32_t env_u32(const char* name, uint32_t dflt) {
    char v[32];
    DWORD n = GetEnvironmentVariableA(name, v, sizeof v);
    if (!n || n >= sizeof v) return dflt;
    return (uint32_t)strtoul(v, NULL, 10);
}

/* VPSIM_CAPTURE_REAL_TIME=1: the program reads the real timers (its capture may differ run to run). */
static int g_real_time;

static void open_capture(void) {
    char path[MAX_PATH * 2];
    DWORD n = GetEnvironmentVariableA("VPSIM_CAPTURE_FILE", path, sizeof path);
    if (!n || n >= sizeof path) return;
    g_file = CreateFileA(path, GENERIC_WRITE, FILE_SHARE_READ, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (g_file == INVALID_HANDLE_VALUE) return;
    unsigned char hdr[VPSIM_CAPTURE_HEADER_BYTES];
    uint32_t f[6] = {VPSIM_CAPTURE_VERSION, VPSIM_CAPTURE_HEADER_BYTES, g_real_time ? 0 : VPSIM_CAPTURE_FLAG_VIRTUAL_TIME,
                     env_u32("VPSIM_CAPTURE_FIRST_FRAME", 0), env_u32("VPSIM_CAPTURE_LAST_FRAME", 0xFFFFFFFFu), 0};
    memcpy(hdr, VPSIM_CAPTURE_MAGIC, 8);
    memcpy(hdr + 8, f, sizeof f);
    write_all(hdr, sizeof hdr);
    g_last_frame = f[4];
    g_enabled = 1;
}

/* The frame's record (its header, then the calls gathered since the last one), in one piece. The
 * caller holds g_lock or is the only thread left. */
static void write_frame(void) {
    uint32_t h[5] = {VPSIM_CAPTURE_FRAME_MAGIC, g_frame, g_calls, (uint32_t)g_len, vpsim_capture_checksum(g_buf, g_len)};
    write_all(h, sizeof h);
    write_all(g_buf, (DWORD)g_len);
}

/* Present: the frame's record goes to the file in one piece; the process ends after the last
 * frame wanted. */
static void end_frame(void) {
    if (!g_enabled) return;
    EnterCriticalSection(&g_lock);
    write_frame();
    g_len = 0;
    g_calls = 0;
    const int last = g_frame == g_last_frame;
    ++g_frame;
    LeaveCriticalSection(&g_lock);
    if (last) {
        CloseHandle(g_file);
        TerminateProcess(GetCurrentProcess(), 0);
    }
}

/* ---- virtual time: the program's timers advance 1/60 s per frame, 1 us per read ---- */
static uint64_t g_reads_in_frame, g_time_frame;
static uint64_t virtual_us(void) {
    if (g_time_frame != g_frame) {
        g_time_frame = g_frame;
        g_reads_in_frame = 0;
    }
    return 1000000ull + (uint64_t)g_frame * 16667ull + g_reads_in_frame++;
}
static BOOL WINAPI v_QueryPerformanceCounter(LARGE_INTEGER* c) { c->QuadPart = (LONGLONG)virtual_us(); return TRUE; }
static BOOL WINAPI v_QueryPerformanceFrequency(LARGE_INTEGER* f) { f->QuadPart = 1000000; return TRUE; }
static DWORD WINAPI v_GetTickCount(void) { return (DWORD)(virtual_us() / 1000); }
static DWORD WINAPI v_timeGetTime(void) { return (DWORD)(virtual_us() / 1000); }

/* Replaces the program's (the main module's) imports of `fn` from `dll` by `hook`. */
static void patch_import(const char* dll, const char* fn, void* hook) {
    BYTE* base = (BYTE*)GetModuleHandleA(NULL);
    IMAGE_NT_HEADERS* nt = (IMAGE_NT_HEADERS*)(base + ((IMAGE_DOS_HEADER*)base)->e_lfanew);
    IMAGE_DATA_DIRECTORY dir = nt->OptionalHeader.DataDirectory[IMAGE_DIRECTORY_ENTRY_IMPORT];
    if (!dir.VirtualAddress) return;
    for (IMAGE_IMPORT_DESCRIPTOR* d = (IMAGE_IMPORT_DESCRIPTOR*)(base + dir.VirtualAddress); d->Name; ++d) {
        if (_stricmp((const char*)(base + d->Name), dll)) continue;
        IMAGE_THUNK_DATA* names = (IMAGE_THUNK_DATA*)(base + (d->OriginalFirstThunk ? d->OriginalFirstThunk : d->FirstThunk));
        IMAGE_THUNK_DATA* addrs = (IMAGE_THUNK_DATA*)(base + d->FirstThunk);
        for (; names->u1.AddressOfData; ++names, ++addrs) {
            if (IMAGE_SNAP_BY_ORDINAL(names->u1.Ordinal)) continue;
            IMAGE_IMPORT_BY_NAME* ibn = (IMAGE_IMPORT_BY_NAME*)(base + names->u1.AddressOfData);
            if (strcmp((const char*)ibn->Name, fn)) continue;
            DWORD old;
            VirtualProtect(&addrs->u1.Function, sizeof(void*), PAGE_READWRITE, &old);
            addrs->u1.Function = (ULONG_PTR)hook;
            VirtualProtect(&addrs->u1.Function, sizeof(void*), old, &old);
        }
    }
}

static void virtualize_timers(void) {
    patch_import("kernel32.dll", "QueryPerformanceCounter", (void*)v_QueryPerformanceCounter);
    patch_import("kernel32.dll", "QueryPerformanceFrequency", (void*)v_QueryPerformanceFrequency);
    patch_import("kernel32.dll", "GetTickCount", (void*)v_GetTickCount);
    patch_import("winmm.dll", "timeGetTime", (void*)v_timeGetTime);
}

/* ---- resources: sequential ids, and the range a Lock gave out ---- */
typedef struct {
    void* obj;
    uint32_t id, length;
    BYTE* data;  /* the pointer the open Lock returned; NULL when not locked or READONLY */
    uint32_t offset, size, flags;
} Resource;
static Resource* g_res;
static size_t g_nres, g_capres;
static uint32_t g_next_id = 1;

static Resource* find_res(void* obj) {
    for (size_t i = g_nres; i-- > 0;)
        if (g_res[i].obj == obj) return &g_res[i];
    return NULL;
}

static uint32_t add_res(void* obj, uint32_t length) {
    Resource* r = find_res(obj);  /* a released object's address used again */
    if (!r) {
        if (g_nres == g_capres) {
            size_t c = g_capres ? g_capres * 2 : 64;
            Resource* n = (Resource*)realloc(g_res, c * sizeof *n);
            if (!n) return 0;
            g_res = n;
            g_capres = c;
        }
        r = &g_res[g_nres++];
    }
    memset(r, 0, sizeof *r);
    r->obj = obj;
    r->id = g_next_id++;
    r->length = length;
    return r->id;
}

static uint32_t res_id(void* obj) {
    if (!obj) return 0;
    Resource* r = find_res(obj);
    return r ? r->id : 0xFFFFFFFFu;
}

static void unprotect(void* p, size_t n) {
    DWORD old;
    VirtualProtect(p, n, PAGE_EXECUTE_READWRITE, &old);
}

#define ENTER() ++t_depth
#define LEAVE() --t_depth
#define PATCH(vt, name)                       \
    if ((vt)->name != h_##name) {             \
        o_##name = (vt)->name;                \
        (vt)->name = h_##name;                \
    }

/* ---- buffers ---- */
static HRESULT(STDMETHODCALLTYPE* o_VBLock)(IDirect3DVertexBuffer8*, UINT, UINT, BYTE**, DWORD);
static HRESULT(STDMETHODCALLTYPE* o_VBUnlock)(IDirect3DVertexBuffer8*);
static HRESULT(STDMETHODCALLTYPE* o_IBLock)(IDirect3DIndexBuffer8*, UINT, UINT, BYTE**, DWORD);
static HRESULT(STDMETHODCALLTYPE* o_IBUnlock)(IDirect3DIndexBuffer8*);

static void note_lock(void* obj, UINT off, UINT size, BYTE* data, DWORD flags) {
    EnterCriticalSection(&g_lock);
    Resource* r = find_res(obj);
    if (r) {
        if (!size || off + size > r->length) size = off < r->length ? r->length - off : 0;
        r->data = (flags & D3DLOCK_READONLY) ? NULL : data;
        r->offset = off;
        r->size = size;
        r->flags = flags;
    }
    LeaveCriticalSection(&g_lock);
}

/* Before the real Unlock: the locked bytes as the program left them. */
static void note_unlock(void* obj, uint16_t op) {
    EnterCriticalSection(&g_lock);
    Resource* r = find_res(obj);
    if (r && r->data) {
        uint32_t a[4] = {r->id, r->offset, r->size, r->flags};
        t_hr = 0;  /* only a Lock that succeeded has bytes to record */
        rec(op, a, sizeof a, r->data, r->size, NULL, 0);
        r->data = NULL;
    }
    LeaveCriticalSection(&g_lock);
}

static HRESULT STDMETHODCALLTYPE h_VBLock(IDirect3DVertexBuffer8* b, UINT off, UINT size, BYTE** data, DWORD flags) {
    ENTER();
    HRESULT hr = o_VBLock(b, off, size, data, flags);
    if (SUCCEEDED(hr) && t_depth == 1) note_lock(b, off, size, *data, flags);
    LEAVE();
    return hr;
}
static HRESULT STDMETHODCALLTYPE h_VBUnlock(IDirect3DVertexBuffer8* b) {
    if (t_depth == 0) note_unlock(b, VPSIM_OP_VERTEX_BUFFER_DATA);
    ENTER();
    HRESULT hr = o_VBUnlock(b);
    LEAVE();
    return hr;
}
static HRESULT STDMETHODCALLTYPE h_IBLock(IDirect3DIndexBuffer8* b, UINT off, UINT size, BYTE** data, DWORD flags) {
    ENTER();
    HRESULT hr = o_IBLock(b, off, size, data, flags);
    if (SUCCEEDED(hr) && t_depth == 1) note_lock(b, off, size, *data, flags);
    LEAVE();
    return hr;
}
static HRESULT STDMETHODCALLTYPE h_IBUnlock(IDirect3DIndexBuffer8* b) {
    if (t_depth == 0) note_unlock(b, VPSIM_OP_INDEX_BUFFER_DATA);
    ENTER();
    HRESULT hr = o_IBUnlock(b);
    LEAVE();
    return hr;
}
static void patch_vb(IDirect3DVertexBuffer8* b) {
    IDirect3DVertexBuffer8Vtbl* vt = b->lpVtbl;
    unprotect(vt, sizeof *vt);
    if (vt->Lock != h_VBLock) { o_VBLock = vt->Lock; vt->Lock = h_VBLock; }
    if (vt->Unlock != h_VBUnlock) { o_VBUnlock = vt->Unlock; vt->Unlock = h_VBUnlock; }
}
static void patch_ib(IDirect3DIndexBuffer8* b) {
    IDirect3DIndexBuffer8Vtbl* vt = b->lpVtbl;
    unprotect(vt, sizeof *vt);
    if (vt->Lock != h_IBLock) { o_IBLock = vt->Lock; vt->Lock = h_IBLock; }
    if (vt->Unlock != h_IBUnlock) { o_IBUnlock = vt->Unlock; vt->Unlock = h_IBUnlock; }
}

/* ---- the device ---- */
#define DEV IDirect3DDevice8* d
/* Declares the original entry o_NAME and starts the hook h_NAME: a nested call (Wine calling its
 * own method) goes straight to the original. The call is recorded whether it succeeded or not,
 * with its HRESULT (format version 3); a body that reads what the call returned through a pointer
 * checks SUCCEEDED(hr) first. */
#define HOOK(ret, name, params, args)                                 \
    static ret(STDMETHODCALLTYPE* o_##name) params;                   \
    static ret STDMETHODCALLTYPE h_##name params {                    \
        if (t_depth) return o_##name args;                            \
        ENTER();                                                      \
        ret hr = o_##name args;                                       \
        t_hr = (uint32_t)hr;                                          \
        {
#define END_HOOK() \
        }          \
        LEAVE();   \
        return hr; \
    }

static void u32s(uint16_t op, const uint32_t* a, uint32_t n) { rec(op, a, n * 4, NULL, 0, NULL, 0); }

/* Vertices a draw of `count` primitives of `type` references. */
static uint32_t prim_vertices(D3DPRIMITIVETYPE type, UINT count) {
    switch (type) {
    case D3DPT_POINTLIST: return count;
    case D3DPT_LINELIST: return 2 * count;
    case D3DPT_LINESTRIP: return count + 1;
    case D3DPT_TRIANGLELIST: return 3 * count;
    case D3DPT_TRIANGLESTRIP:
    case D3DPT_TRIANGLEFAN: return count + 2;
    default: return 0;
    }
}

/* Token counts: a declaration up to and with D3DVSD_END; a function up to and with its end token
 * (0x0000FFFF), comment blocks skipped by their length. */
static uint32_t decl_dwords(const DWORD* t) {
    uint32_t i = 0;
    if (!t) return 0;
    while (i < 65536) {
        DWORD k = t[i++];
        if (k == 0xFFFFFFFFu) return i;
        DWORD type = k >> 29;
        if (type == 4) i += ((k >> 25) & 0xF) * 4;       /* CONSTMEM: 4 DWORDs per register */
        else if (type == 5) i += (k >> 24) & 0x1F;       /* EXT: its data DWORDs */
    }
    return 0;
}
static uint32_t function_dwords(const DWORD* t) {
    uint32_t i = 0;
    if (!t) return 0;
    while (i < 65536) {
        DWORD k = t[i++];
        if (k == 0x0000FFFFu) return i;
        if ((k & 0xFFFF) == 0xFFFE) i += (k >> 16) & 0x7FFF;  /* comment */
    }
    return 0;
}

HOOK(HRESULT, SetStreamSource, (DEV, UINT s, IDirect3DVertexBuffer8* b, UINT stride), (d, s, b, stride))
    uint32_t a[3] = {s, res_id(b), stride};
    u32s(VPSIM_OP_SET_STREAM_SOURCE, a, 3);
END_HOOK()
HOOK(HRESULT, SetIndices, (DEV, IDirect3DIndexBuffer8* b, UINT base), (d, b, base))
    uint32_t a[2] = {res_id(b), base};
    u32s(VPSIM_OP_SET_INDICES, a, 2);
END_HOOK()
HOOK(HRESULT, CreateVertexBuffer, (DEV, UINT len, DWORD usage, DWORD fvf, D3DPOOL pool, IDirect3DVertexBuffer8** out),
     (d, len, usage, fvf, pool, out))
    uint32_t id = 0;  /* a refused call made no buffer */
    if (SUCCEEDED(hr)) {
        patch_vb(*out);
        EnterCriticalSection(&g_lock);
        id = add_res(*out, len);
        LeaveCriticalSection(&g_lock);
    }
    uint32_t a[5] = {id, len, usage, fvf, (uint32_t)pool};
    u32s(VPSIM_OP_CREATE_VERTEX_BUFFER, a, 5);
END_HOOK()
HOOK(HRESULT, CreateIndexBuffer, (DEV, UINT len, DWORD usage, D3DFORMAT fmt, D3DPOOL pool, IDirect3DIndexBuffer8** out),
     (d, len, usage, fmt, pool, out))
    uint32_t id = 0;
    if (SUCCEEDED(hr)) {
        patch_ib(*out);
        EnterCriticalSection(&g_lock);
        id = add_res(*out, len);
        LeaveCriticalSection(&g_lock);
    }
    uint32_t a[5] = {id, len, usage, (uint32_t)fmt, (uint32_t)pool};
    u32s(VPSIM_OP_CREATE_INDEX_BUFFER, a, 5);
END_HOOK()
HOOK(HRESULT, CreateVertexShader, (DEV, const DWORD* decl, const DWORD* fn, DWORD* handle, DWORD usage),
     (d, decl, fn, handle, usage))
    uint32_t nd = decl_dwords(decl), nf = function_dwords(fn);
    uint32_t a[4] = {SUCCEEDED(hr) ? *handle : 0u, usage, nd, nf};
    rec(VPSIM_OP_CREATE_VERTEX_SHADER, a, sizeof a, decl, nd * 4, fn, nf * 4);
END_HOOK()
HOOK(HRESULT, SetVertexShader, (DEV, DWORD h), (d, h))
    u32s(VPSIM_OP_SET_VERTEX_SHADER, (uint32_t*)&h, 1);
END_HOOK()
HOOK(HRESULT, DeleteVertexShader, (DEV, DWORD h), (d, h))
    u32s(VPSIM_OP_DELETE_VERTEX_SHADER, (uint32_t*)&h, 1);
END_HOOK()
HOOK(HRESULT, SetVertexShaderConstant, (DEV, DWORD reg, const void* data, DWORD count), (d, reg, data, count))
    uint32_t a[2] = {reg, count};
    rec(VPSIM_OP_SET_VERTEX_SHADER_CONSTANT, a, sizeof a, data, count * 16, NULL, 0);
END_HOOK()
HOOK(HRESULT, SetTransform, (DEV, D3DTRANSFORMSTATETYPE s, const D3DMATRIX* m), (d, s, m))
    uint32_t a = (uint32_t)s;
    rec(VPSIM_OP_SET_TRANSFORM, &a, 4, m, 64, NULL, 0);
END_HOOK()
HOOK(HRESULT, MultiplyTransform, (DEV, D3DTRANSFORMSTATETYPE s, const D3DMATRIX* m), (d, s, m))
    uint32_t a = (uint32_t)s;
    rec(VPSIM_OP_MULTIPLY_TRANSFORM, &a, 4, m, 64, NULL, 0);
END_HOOK()
HOOK(HRESULT, SetLight, (DEV, DWORD i, const D3DLIGHT8* l), (d, i, l))
    rec(VPSIM_OP_SET_LIGHT, &i, 4, l, sizeof *l, NULL, 0);
END_HOOK()
HOOK(HRESULT, LightEnable, (DEV, DWORD i, BOOL on), (d, i, on))
    uint32_t a[2] = {i, on ? 1u : 0u};
    u32s(VPSIM_OP_LIGHT_ENABLE, a, 2);
END_HOOK()
HOOK(HRESULT, SetMaterial, (DEV, const D3DMATERIAL8* m), (d, m))
    rec(VPSIM_OP_SET_MATERIAL, m, sizeof *m, NULL, 0, NULL, 0);
END_HOOK()
HOOK(HRESULT, SetRenderState, (DEV, D3DRENDERSTATETYPE s, DWORD v), (d, s, v))
    uint32_t a[2] = {(uint32_t)s, v};
    u32s(VPSIM_OP_SET_RENDER_STATE, a, 2);
END_HOOK()
HOOK(HRESULT, SetTextureStageState, (DEV, DWORD st, D3DTEXTURESTAGESTATETYPE s, DWORD v), (d, st, s, v))
    uint32_t a[3] = {st, (uint32_t)s, v};
    u32s(VPSIM_OP_SET_TEXTURE_STAGE_STATE, a, 3);
END_HOOK()
HOOK(HRESULT, SetViewport, (DEV, const D3DVIEWPORT8* v), (d, v))
    rec(VPSIM_OP_SET_VIEWPORT, v, sizeof *v, NULL, 0, NULL, 0);
END_HOOK()
HOOK(HRESULT, DrawPrimitive, (DEV, D3DPRIMITIVETYPE t, UINT start, UINT count), (d, t, start, count))
    uint32_t a[3] = {(uint32_t)t, start, count};
    u32s(VPSIM_OP_DRAW_PRIMITIVE, a, 3);
END_HOOK()
HOOK(HRESULT, DrawIndexedPrimitive, (DEV, D3DPRIMITIVETYPE t, UINT minidx, UINT nv, UINT start, UINT count),
     (d, t, minidx, nv, start, count))
    uint32_t a[5] = {(uint32_t)t, minidx, nv, start, count};
    u32s(VPSIM_OP_DRAW_INDEXED_PRIMITIVE, a, 5);
END_HOOK()
HOOK(HRESULT, DrawPrimitiveUP, (DEV, D3DPRIMITIVETYPE t, UINT count, const void* data, UINT stride),
     (d, t, count, data, stride))
    uint32_t bytes = prim_vertices(t, count) * stride;
    uint32_t a[4] = {(uint32_t)t, count, stride, bytes};
    rec(VPSIM_OP_DRAW_PRIMITIVE_UP, a, sizeof a, data, bytes, NULL, 0);
END_HOOK()
HOOK(HRESULT, DrawIndexedPrimitiveUP,
     (DEV, D3DPRIMITIVETYPE t, UINT minidx, UINT nv, UINT count, const void* idx, D3DFORMAT fmt, const void* data, UINT stride),
     (d, t, minidx, nv, count, idx, fmt, data, stride))
    uint32_t ib = prim_vertices(t, count) * (fmt == D3DFMT_INDEX32 ? 4 : 2);
    uint32_t vb = (minidx + nv) * stride;
    uint32_t a[8] = {(uint32_t)t, minidx, nv, count, (uint32_t)fmt, stride, ib, vb};
    rec(VPSIM_OP_DRAW_INDEXED_PRIMITIVE_UP, a, sizeof a, idx, ib, data, vb);
END_HOOK()
/* Present: the frame mark; the back buffer of a frame chosen by --shots is read before the real
 * Present (proxy_shots.c), after which its contents are undefined. */
static HRESULT(STDMETHODCALLTYPE* o_Present)(DEV, const RECT*, const RECT*, HWND, const RGNDATA*);
static HRESULT STDMETHODCALLTYPE h_Present(DEV, const RECT* s, const RECT* t, HWND w, const RGNDATA* r) {
    if (t_depth) return o_Present(d, s, t, w, r);
    ENTER();
    if (g_enabled) vpsim_shots_take(d, g_frame);
    HRESULT hr = o_Present(d, s, t, w, r);
    if (SUCCEEDED(hr)) {  /* a refused Present is no frame's end: not recorded */
        t_hr = 0;
        rec(VPSIM_OP_PRESENT, NULL, 0, NULL, 0, NULL, 0);
        end_frame();
    }
    LEAVE();
    return hr;
}

/* ---- version 2: state blocks, ProcessVertices, Reset, the device's caps ---- */
HOOK(HRESULT, CreateStateBlock, (DEV, D3DSTATEBLOCKTYPE type, DWORD* handle), (d, type, handle))
    uint32_t a[2] = {(uint32_t)type, SUCCEEDED(hr) ? *handle : 0u};
    u32s(VPSIM_OP_CREATE_STATE_BLOCK, a, 2);
END_HOOK()
HOOK(HRESULT, BeginStateBlock, (DEV), (d))
    rec(VPSIM_OP_BEGIN_STATE_BLOCK, NULL, 0, NULL, 0, NULL, 0);
END_HOOK()
HOOK(HRESULT, EndStateBlock, (DEV, DWORD* handle), (d, handle))
    uint32_t a = SUCCEEDED(hr) ? *handle : 0u;
    u32s(VPSIM_OP_END_STATE_BLOCK, &a, 1);
END_HOOK()
HOOK(HRESULT, CaptureStateBlock, (DEV, DWORD h), (d, h))
    u32s(VPSIM_OP_CAPTURE_STATE_BLOCK, (uint32_t*)&h, 1);
END_HOOK()
HOOK(HRESULT, ApplyStateBlock, (DEV, DWORD h), (d, h))
    u32s(VPSIM_OP_APPLY_STATE_BLOCK, (uint32_t*)&h, 1);
END_HOOK()
HOOK(HRESULT, DeleteStateBlock, (DEV, DWORD h), (d, h))
    u32s(VPSIM_OP_DELETE_STATE_BLOCK, (uint32_t*)&h, 1);
END_HOOK()

/* Bytes of one vertex of FVF code `fvf` (0 for none). */
static uint32_t fvf_bytes(DWORD fvf) {
    static const uint32_t pos[8] = {0, 12, 16, 16, 20, 24, 28, 32}; /* none, XYZ, XYZRHW, XYZB1..B5 */
    static const uint32_t tex[4] = {8, 12, 16, 4};                   /* D3DFVF_TEXCOORDSIZE2, 3, 4, 1 */
    uint32_t n = pos[(fvf & D3DFVF_POSITION_MASK) >> 1];
    if (fvf & D3DFVF_NORMAL) n += 12;
    if (fvf & D3DFVF_PSIZE) n += 4;
    if (fvf & D3DFVF_DIFFUSE) n += 4;
    if (fvf & D3DFVF_SPECULAR) n += 4;
    for (DWORD i = 0; i < ((fvf & D3DFVF_TEXCOUNT_MASK) >> D3DFVF_TEXCOUNT_SHIFT); ++i) n += tex[(fvf >> (16 + 2 * i)) & 3];
    return n;
}

/* ProcessVertices: the call and the destination's bytes it wrote, read back with a READONLY lock
 * (a nested call: not recorded as a Lock). */
static void record_process_vertices(UINT src, UINT dst, UINT count, IDirect3DVertexBuffer8* b, DWORD flags) {
    D3DVERTEXBUFFER_DESC desc;
    BYTE* p = NULL;
    if (FAILED(b->lpVtbl->GetDesc(b, &desc))) return;
    uint32_t stride = fvf_bytes(desc.FVF);
    uint32_t off = stride ? dst * stride : 0, size = stride ? count * stride : desc.Size;
    if (off > desc.Size) off = desc.Size;
    if (size > desc.Size - off) size = desc.Size - off;
    if (FAILED(b->lpVtbl->Lock(b, 0, 0, &p, D3DLOCK_READONLY))) return;
    uint32_t a[7] = {src, dst, count, res_id(b), flags, off, size};
    rec(VPSIM_OP_PROCESS_VERTICES, a, sizeof a, p + off, size, NULL, 0);
    b->lpVtbl->Unlock(b);
}
HOOK(HRESULT, ProcessVertices, (DEV, UINT src, UINT dst, UINT count, IDirect3DVertexBuffer8* b, DWORD flags),
     (d, src, dst, count, b, flags))
    if (SUCCEEDED(hr)) {
        record_process_vertices(src, dst, count, b, flags);
    } else {  /* nothing written: no bytes */
        uint32_t a[7] = {src, dst, count, res_id(b), flags, 0, 0};
        u32s(VPSIM_OP_PROCESS_VERTICES, a, 7);
    }
END_HOOK()
HOOK(HRESULT, Reset, (DEV, D3DPRESENT_PARAMETERS* pp), (d, pp))
    uint32_t a[3] = {0, 0, 0};
    if (pp) a[0] = pp->BackBufferWidth, a[1] = pp->BackBufferHeight, a[2] = pp->Windowed ? 1u : 0u;
    u32s(VPSIM_OP_RESET, a, 3);
END_HOOK()

/* The device's caps that bear on the vertex pipeline, once after CreateDevice. */
static void record_caps(IDirect3DDevice8* dev) {
    D3DCAPS8 c;
    if (FAILED(dev->lpVtbl->GetDeviceCaps(dev, &c))) return;
    uint32_t w[VPSIM_CAPS_WORDS] = {(uint32_t)c.DeviceType, c.AdapterOrdinal, c.Caps, c.Caps2, c.Caps3, c.DevCaps,
                                    c.PrimitiveMiscCaps, c.RasterCaps, c.FVFCaps, c.VertexProcessingCaps,
                                    c.MaxActiveLights, c.MaxUserClipPlanes, c.MaxVertexBlendMatrices,
                                    c.MaxVertexBlendMatrixIndex, 0, c.MaxPrimitiveCount, c.MaxVertexIndex, c.MaxStreams,
                                    c.MaxStreamStride, c.VertexShaderVersion, c.MaxVertexShaderConst, c.PixelShaderVersion};
    memcpy(&w[VPSIM_CAPS_MAX_POINT_SIZE], &c.MaxPointSize, 4);
    u32s(VPSIM_OP_DEVICE_CAPS, w, VPSIM_CAPS_WORDS);
}

static void patch_device_v2(IDirect3DDevice8Vtbl* vt) {
    PATCH(vt, CreateStateBlock)
    PATCH(vt, BeginStateBlock)
    PATCH(vt, EndStateBlock)
    PATCH(vt, CaptureStateBlock)
    PATCH(vt, ApplyStateBlock)
    PATCH(vt, DeleteStateBlock)
    PATCH(vt, ProcessVertices)
    PATCH(vt, Reset)
}

static void patch_device(IDirect3DDevice8* dev) {
    IDirect3DDevice8Vtbl* vt = dev->lpVtbl;
    unprotect(vt, sizeof *vt);
    PATCH(vt, SetStreamSource)
    PATCH(vt, SetIndices)
    PATCH(vt, CreateVertexBuffer)
    PATCH(vt, CreateIndexBuffer)
    PATCH(vt, CreateVertexShader)
    PATCH(vt, SetVertexShader)
    PATCH(vt, DeleteVertexShader)
    PATCH(vt, SetVertexShaderConstant)
    PATCH(vt, SetTransform)
    PATCH(vt, MultiplyTransform)
    PATCH(vt, SetLight)
    PATCH(vt, LightEnable)
    PATCH(vt, SetMaterial)
    PATCH(vt, SetRenderState)
    PATCH(vt, SetTextureStageState)
    PATCH(vt, SetViewport)
    PATCH(vt, DrawPrimitive)
    PATCH(vt, DrawIndexedPrimitive)
    PATCH(vt, DrawPrimitiveUP)
    PATCH(vt, DrawIndexedPrimitiveUP)
    PATCH(vt, Present)
    patch_device_v2(vt);
}

/* ---- IDirect3D8::CreateDevice ---- */
HOOK(HRESULT, CreateDevice,
     (IDirect3D8 * d3d, UINT adapter, D3DDEVTYPE type, HWND w, DWORD flags, D3DPRESENT_PARAMETERS* pp, IDirect3DDevice8** out),
     (d3d, adapter, type, w, flags, pp, out))
    if (SUCCEEDED(hr)) patch_device(*out);
    uint32_t a[6] = {adapter, (uint32_t)type, flags, pp ? pp->BackBufferWidth : 0u, pp ? pp->BackBufferHeight : 0u,
                     pp && pp->Windowed ? 1u : 0u};
    u32s(VPSIM_OP_CREATE_DEVICE, a, 6);
    if (SUCCEEDED(hr)) {
        t_hr = 0;
        record_caps(*out);
    }
END_HOOK()

/* ---- the exports ---- */
static HMODULE g_real;
static void* real_proc(const char* name) {
    if (!g_real) {
        char path[MAX_PATH];
        UINT n = GetSystemDirectoryA(path, MAX_PATH - 16);
        if (!n || n >= MAX_PATH - 16) return NULL;
        strcat(path, "\\d3d8.dll");
        g_real = LoadLibraryA(path);
        if (!g_real) return NULL;
    }
    return (void*)GetProcAddress(g_real, name);
}

IDirect3D8* WINAPI Direct3DCreate8(UINT sdk) {
    IDirect3D8*(WINAPI * f)(UINT) = (IDirect3D8 * (WINAPI*)(UINT)) real_proc("Direct3DCreate8");
    IDirect3D8* d3d = f ? f(sdk) : NULL;
    if (d3d) {
        IDirect3D8Vtbl* vt = d3d->lpVtbl;
        unprotect(vt, sizeof *vt);
        PATCH(vt, CreateDevice)
    }
    return d3d;
}
HRESULT WINAPI ValidateVertexShader(DWORD* code, DWORD* r1, DWORD* r2, BOOL ret, char** errors) {
    HRESULT(WINAPI * f)(DWORD*, DWORD*, DWORD*, BOOL, char**) =
        (HRESULT(WINAPI*)(DWORD*, DWORD*, DWORD*, BOOL, char**))real_proc("ValidateVertexShader");
    return f ? f(code, r1, r2, ret, errors) : E_FAIL;
}
HRESULT WINAPI ValidatePixelShader(DWORD* code, DWORD* r1, BOOL ret, char** errors) {
    HRESULT(WINAPI * f)(DWORD*, DWORD*, BOOL, char**) = (HRESULT(WINAPI*)(DWORD*, DWORD*, BOOL, char**))real_proc("ValidatePixelShader");
    return f ? f(code, r1, ret, errors) : E_FAIL;
}
void WINAPI DebugSetMute(void) {
    void(WINAPI * f)(void) = (void(WINAPI*)(void))real_proc("DebugSetMute");
    if (f) f();
}
void* WINAPI Direct3DShaderValidatorCreate8(void) {
    void*(WINAPI * f)(void) = (void*(WINAPI*)(void))real_proc("Direct3DShaderValidatorCreate8");
    return f ? f() : NULL;
}

/* The program's normal end (ExitProcess; not TerminateProcess, not a crash): the calls after its
 * last Present, if any, as a last frame, which has no Present (a program that draws without
 * presenting, e.g. Wine's conformance tests reading the render target back, would lose them). The
 * other threads are gone by then: no lock. */
static void flush_at_exit(void) {
    if (!g_enabled || !g_calls) return;
    write_frame();
    CloseHandle(g_file);
    g_enabled = 0;
}

BOOL WINAPI DllMain(HINSTANCE inst, DWORD reason, void* reserved) {
    (void)inst;
    if (reason == DLL_PROCESS_DETACH && reserved) flush_at_exit();
    if (reason == DLL_PROCESS_ATTACH) {
        InitializeCriticalSection(&g_lock);
        g_real_time = env_u32("VPSIM_CAPTURE_REAL_TIME", 0) != 0;
        open_capture();
        if (g_enabled && !g_real_time) virtualize_timers();
        if (g_enabled) vpsim_shots_init();
    }
    return TRUE;
}

/* The recorder's reference pictures (proxy_shots.h). PNG written without a compressor: stored
 * deflate blocks (RFC 1951 BTYPE 00) in a zlib stream (RFC 1950), 8-bit RGB (PNG colour type 2),
 * each row with filter 0. Built into the recorder d3d8.dll by CMakeLists.txt. */
#include "proxy_shots.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint32_t* g_shots;  /* the frames wanted, ascending */
static size_t g_nshots;
static char g_prefix[MAX_PATH * 2];

void vpsim_shots_init(void) {
    char list[4096];
    DWORD n = GetEnvironmentVariableA("VPSIM_CAPTURE_SHOTS", list, sizeof list);
    if (!n || n >= sizeof list) return;
    DWORD m = GetEnvironmentVariableA("VPSIM_CAPTURE_SHOT_PREFIX", g_prefix, sizeof g_prefix - 32);
    if (!m || m >= sizeof g_prefix - 32) return;
    g_shots = (uint32_t*)malloc(sizeof(uint32_t) * (n / 2 + 1));
    if (!g_shots) return;
    for (char* p = list; *p;) {
        char* end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p) break;
        g_shots[g_nshots++] = (uint32_t)v;
        p = *end == ',' ? end + 1 : end;
    }
}

static int wanted(uint32_t frame) {
    for (size_t i = 0; i < g_nshots; ++i)
        if (g_shots[i] == frame) return 1;
    return 0;
}

/* ---- PNG ---- */
static uint32_t crc_table[256];
static uint32_t crc32_of(const unsigned char* p, size_t n, uint32_t c) {
    if (!crc_table[1])
        for (uint32_t i = 0; i < 256; ++i) {
            uint32_t k = i;
            for (int j = 0; j < 8; ++j) k = (k & 1) ? 0xEDB88320u ^ (k >> 1) : k >> 1;
            crc_table[i] = k;
        }
    c = ~c;
    for (size_t i = 0; i < n; ++i) c = crc_table[(c ^ p[i]) & 0xFF] ^ (c >> 8);
    return ~c;
}

static unsigned char* put_be32(unsigned char* o, uint32_t v) {
    o[0] = (unsigned char)(v >> 24);
    o[1] = (unsigned char)(v >> 16);
    o[2] = (unsigned char)(v >> 8);
    o[3] = (unsigned char)v;
    return o + 4;
}

/* A chunk at `o`: length, type, data (already at o + 8), CRC. Returns its end. */
static unsigned char* chunk(unsigned char* o, const char* type, uint32_t len) {
    put_be32(o, len);
    memcpy(o + 4, type, 4);
    return put_be32(o + 8 + len, crc32_of(o + 4, len + 4, 0));
}

/* The PNG of `raw` (height rows of 1 + 3 * width bytes: filter byte 0, then RGB) in a new buffer. */
static unsigned char* encode_png(const unsigned char* raw, uint32_t width, uint32_t height, size_t* size) {
    const size_t n = (size_t)height * (1 + 3 * (size_t)width), blocks = n / 65535 + 1;
    const size_t zlen = 2 + n + 5 * blocks + 4;
    unsigned char* png = (unsigned char*)malloc(8 + 25 + 12 + zlen + 12);
    if (!png) return NULL;
    static const unsigned char sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    memcpy(png, sig, 8);
    unsigned char* o = png + 8;
    unsigned char* d = put_be32(put_be32(o + 8, width), height);
    d[0] = 8;  /* bit depth */
    d[1] = 2;  /* RGB */
    d[2] = d[3] = d[4] = 0;
    o = chunk(o, "IHDR", 13);
    d = o + 8;
    *d++ = 0x78;  /* zlib: deflate, 32 KiB window, no dictionary, fastest */
    *d++ = 0x01;
    uint32_t a = 1, b = 0;
    size_t done = 0;
    do {  /* at least one block, the last with BFINAL */
        const size_t len = n - done < 65535 ? n - done : 65535;
        *d++ = done + len == n ? 1 : 0;  /* BFINAL, BTYPE 00: stored */
        d[0] = (unsigned char)len;
        d[1] = (unsigned char)(len >> 8);
        d[2] = (unsigned char)~len;
        d[3] = (unsigned char)(~len >> 8);
        d += 4;
        memcpy(d, raw + done, len);
        for (size_t i = 0; i < len; ++i) {
            a = (a + raw[done + i]) % 65521;
            b = (b + a) % 65521;
        }
        d += len;
        done += len;
    } while (done < n);
    d = put_be32(d, (b << 16) | a);
    o = chunk(o, "IDAT", (uint32_t)(d - (o + 8)));
    o = chunk(o, "IEND", 0);
    *size = (size_t)(o - png);
    return png;
}

/* ---- the back buffer ---- */
/* One row of `width` pixels of format `fmt` at `src` to RGB at `dst`; 0 for a format it cannot read. */
static int row_to_rgb(D3DFORMAT fmt, const unsigned char* src, unsigned char* dst, uint32_t width) {
    for (uint32_t x = 0; x < width; ++x, dst += 3) {
        switch (fmt) {
        case D3DFMT_X8R8G8B8:
        case D3DFMT_A8R8G8B8:
            dst[0] = src[4 * x + 2], dst[1] = src[4 * x + 1], dst[2] = src[4 * x];
            break;
        case D3DFMT_R8G8B8:
            dst[0] = src[3 * x + 2], dst[1] = src[3 * x + 1], dst[2] = src[3 * x];
            break;
        case D3DFMT_R5G6B5: {
            const unsigned v = src[2 * x] | src[2 * x + 1] << 8, r = v >> 11, g = (v >> 5) & 63, b = v & 31;
            dst[0] = (unsigned char)(r << 3 | r >> 2), dst[1] = (unsigned char)(g << 2 | g >> 4), dst[2] = (unsigned char)(b << 3 | b >> 2);
            break;
        }
        case D3DFMT_X1R5G5B5:
        case D3DFMT_A1R5G5B5: {
            const unsigned v = src[2 * x] | src[2 * x + 1] << 8, r = (v >> 10) & 31, g = (v >> 5) & 31, b = v & 31;
            dst[0] = (unsigned char)(r << 3 | r >> 2), dst[1] = (unsigned char)(g << 3 | g >> 2), dst[2] = (unsigned char)(b << 3 | b >> 2);
            break;
        }
        default: return 0;
        }
    }
    return 1;
}

/* The back buffer as rows for encode_png, or NULL with the reason in `why`. */
static unsigned char* read_back_buffer(IDirect3DDevice8* d, uint32_t* width, uint32_t* height, char* why, size_t whylen) {
    IDirect3DSurface8 *bb = NULL, *sys = NULL;
    unsigned char* raw = NULL;
    D3DSURFACE_DESC desc;
    D3DLOCKED_RECT lr;
    HRESULT hr = d->lpVtbl->GetBackBuffer(d, 0, D3DBACKBUFFER_TYPE_MONO, &bb);
    if (FAILED(hr)) { snprintf(why, whylen, "GetBackBuffer failed (0x%08lx)", (unsigned long)hr); goto done; }
    hr = bb->lpVtbl->GetDesc(bb, &desc);
    if (FAILED(hr)) { snprintf(why, whylen, "GetDesc of the back buffer failed (0x%08lx)", (unsigned long)hr); goto done; }
    hr = d->lpVtbl->CreateImageSurface(d, desc.Width, desc.Height, desc.Format, &sys);
    if (FAILED(hr)) { snprintf(why, whylen, "CreateImageSurface %ux%u format %d failed (0x%08lx)", desc.Width, desc.Height, (int)desc.Format, (unsigned long)hr); goto done; }
    hr = d->lpVtbl->CopyRects(d, bb, NULL, 0, sys, NULL);
    if (FAILED(hr)) { snprintf(why, whylen, "CopyRects of the back buffer failed (0x%08lx; multisampled?)", (unsigned long)hr); goto done; }
    hr = sys->lpVtbl->LockRect(sys, &lr, NULL, D3DLOCK_READONLY);
    if (FAILED(hr)) { snprintf(why, whylen, "LockRect failed (0x%08lx)", (unsigned long)hr); goto done; }
    raw = (unsigned char*)malloc((size_t)desc.Height * (1 + 3 * (size_t)desc.Width));
    for (uint32_t y = 0; raw && y < desc.Height; ++y) {
        unsigned char* row = raw + (size_t)y * (1 + 3 * (size_t)desc.Width);
        row[0] = 0;
        if (!row_to_rgb(desc.Format, (const unsigned char*)lr.pBits + (size_t)y * lr.Pitch, row + 1, desc.Width)) {
            snprintf(why, whylen, "back buffer format %d is not one the recorder reads (X8R8G8B8, A8R8G8B8, R8G8B8, R5G6B5, X1R5G5B5, A1R5G5B5)", (int)desc.Format);
            free(raw);
            raw = NULL;
        }
    }
    if (!raw && !why[0]) snprintf(why, whylen, "out of memory");
    sys->lpVtbl->UnlockRect(sys);
    *width = desc.Width;
    *height = desc.Height;
done:
    if (sys) sys->lpVtbl->Release(sys);
    if (bb) bb->lpVtbl->Release(bb);
    return raw;
}

static int write_whole(const char* path, const void* p, size_t n) {
    char part[MAX_PATH * 2 + 8];
    snprintf(part, sizeof part, "%s.part", path);
    HANDLE f = CreateFileA(part, GENERIC_WRITE, 0, NULL, CREATE_ALWAYS, FILE_ATTRIBUTE_NORMAL, NULL);
    if (f == INVALID_HANDLE_VALUE) return 0;
    DWORD done = 0;
    int ok = 1;
    while (n && ok) {
        ok = WriteFile(f, p, n > 0x40000000u ? 0x40000000u : (DWORD)n, &done, NULL) && done;
        p = (const char*)p + done;
        n -= done;
    }
    CloseHandle(f);
    if (ok) ok = MoveFileExA(part, path, MOVEFILE_REPLACE_EXISTING) != 0;
    if (!ok) DeleteFileA(part);
    return ok;
}

void vpsim_shots_take(IDirect3DDevice8* d, uint32_t frame) {
    if (!wanted(frame)) return;
    char path[MAX_PATH * 2 + 16], why[256] = "";
    uint32_t width = 0, height = 0;
    unsigned char* raw = read_back_buffer(d, &width, &height, why, sizeof why);
    size_t size = 0;
    unsigned char* png = raw ? encode_png(raw, width, height, &size) : NULL;
    if (raw && !png) snprintf(why, sizeof why, "out of memory");
    free(raw);
    snprintf(path, sizeof path, "%s%u.png", g_prefix, frame);
    if (png && !write_whole(path, png, size)) snprintf(why, sizeof why, "cannot write %s", path);
    free(png);
    if (why[0]) {
        snprintf(path, sizeof path, "%s%u.error", g_prefix, frame);
        write_whole(path, why, strlen(why));
    }
}

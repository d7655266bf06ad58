// A small Direct3D 8 program of vpsim's own (docs/capture.md): the workload of the capture test.
// Each frame draws, in a 160 x 120 window:
//   1. a lit cube: fixed function, FVF XYZ|NORMAL|DIFFUSE, a static vertex and index buffer,
//      DrawIndexedPrimitive, a directional and a point light, a material;
//   2. a ribbon: a vertex shader (m4x4 + colour), a dynamic vertex buffer rewritten with DISCARD
//      and appended to with NOOVERWRITE, DrawPrimitive;
//   3. a fan: DrawPrimitiveUP, unlit FVF XYZ|DIFFUSE;
//   4. a lit quad: DrawIndexedPrimitiveUP, FVF XYZ|NORMAL, 16-bit indices.
// Its animation follows QueryPerformanceCounter, so a capture is the same run to run only when
// the recorder virtualises the timers.  Usage: d3d8_spin.exe [FRAMES [crash|hang]]: FRAMES
// frames (default 5), then exit; with `crash` or `hang` the program instead crashes (a write
// through a null pointer) or loops forever after them (the recorder's damage cases).
#include <windows.h>
#include <d3d8.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {

struct Mat { float m[4][4]; };

Mat identity() {
    Mat r{};
    for (int i = 0; i < 4; ++i) r.m[i][i] = 1;
    return r;
}
Mat mul(const Mat& a, const Mat& b) {
    Mat r{};
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            for (int k = 0; k < 4; ++k) r.m[i][j] += a.m[i][k] * b.m[k][j];
    return r;
}
Mat rotation_y(float a) {
    Mat r = identity();
    r.m[0][0] = std::cos(a); r.m[0][2] = -std::sin(a);
    r.m[2][0] = std::sin(a); r.m[2][2] = std::cos(a);
    return r;
}
Mat rotation_x(float a) {
    Mat r = identity();
    r.m[1][1] = std::cos(a); r.m[1][2] = std::sin(a);
    r.m[2][1] = -std::sin(a); r.m[2][2] = std::cos(a);
    return r;
}
Mat translation(float x, float y, float z) {
    Mat r = identity();
    r.m[3][0] = x; r.m[3][1] = y; r.m[3][2] = z;
    return r;
}
// Left-handed perspective (row vectors), as D3DXMatrixPerspectiveFovLH.
Mat perspective(float fovy, float aspect, float zn, float zf) {
    Mat r{};
    const float ys = 1.0f / std::tan(fovy / 2), xs = ys / aspect;
    r.m[0][0] = xs; r.m[1][1] = ys;
    r.m[2][2] = zf / (zf - zn); r.m[2][3] = 1;
    r.m[3][2] = -zn * zf / (zf - zn);
    return r;
}
D3DMATRIX to_d3d(const Mat& a) {
    D3DMATRIX r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) r.m[i][j] = a.m[i][j];
    return r;
}

struct LitVertex { float x, y, z, nx, ny, nz; DWORD color; };  // XYZ|NORMAL|DIFFUSE
struct ColorVertex { float x, y, z; DWORD color; };            // XYZ|DIFFUSE, and the shader's stream
struct NormalVertex { float x, y, z, nx, ny, nz; };            // XYZ|NORMAL
const DWORD kLitFvf = D3DFVF_XYZ | D3DFVF_NORMAL | D3DFVF_DIFFUSE;
const DWORD kColorFvf = D3DFVF_XYZ | D3DFVF_DIFFUSE;
const DWORD kNormalFvf = D3DFVF_XYZ | D3DFVF_NORMAL;
const UINT kRibbonVertices = 16;

// vs.1.1: m4x4 oPos, v0, c0; mov oD0, v5 (tokens as D3D8 defines them).
const DWORD kShaderFunction[] = {0xFFFE0101, 0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000,
                                 0x00000001, 0xD00F0000, 0x90E40005, 0x0000FFFF};
const DWORD kShaderDeclaration[] = {D3DVSD_STREAM(0), D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),
                                    D3DVSD_REG(D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR), D3DVSD_END()};

bool fail(const char* what, HRESULT hr) {
    std::fprintf(stderr, "d3d8_spin: %s failed (0x%08lx)\n", what, (unsigned long)hr);
    return false;
}

struct App {
    IDirect3D8* d3d = nullptr;
    IDirect3DDevice8* dev = nullptr;
    IDirect3DVertexBuffer8* cube_vb = nullptr;
    IDirect3DIndexBuffer8* cube_ib = nullptr;
    IDirect3DVertexBuffer8* ribbon_vb = nullptr;
    DWORD shader = 0;
    Mat view, proj;

    bool init(HWND w);
    bool fill_cube();
    void set_lights();
    bool draw_frame(float t);
    bool draw_ribbon(float t);
    void release();
};

bool App::init(HWND w) {
    d3d = Direct3DCreate8(D3D_SDK_VERSION);
    if (!d3d) return fail("Direct3DCreate8", E_FAIL);
    D3DDISPLAYMODE mode;
    HRESULT hr = d3d->GetAdapterDisplayMode(D3DADAPTER_DEFAULT, &mode);
    if (FAILED(hr)) return fail("GetAdapterDisplayMode", hr);
    D3DPRESENT_PARAMETERS pp{};
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = mode.Format;
    pp.BackBufferWidth = 160;
    pp.BackBufferHeight = 120;
    pp.EnableAutoDepthStencil = TRUE;
    pp.AutoDepthStencilFormat = D3DFMT_D16;
    hr = d3d->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, w, D3DCREATE_HARDWARE_VERTEXPROCESSING, &pp, &dev);
    if (FAILED(hr)) return fail("CreateDevice", hr);
    if (!fill_cube()) return false;
    hr = dev->CreateVertexBuffer(2 * kRibbonVertices * sizeof(ColorVertex), D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY, 0,
                                 D3DPOOL_DEFAULT, &ribbon_vb);
    if (FAILED(hr)) return fail("CreateVertexBuffer (ribbon)", hr);
    hr = dev->CreateVertexShader(kShaderDeclaration, kShaderFunction, &shader, 0);
    if (FAILED(hr)) return fail("CreateVertexShader", hr);
    view = translation(0, 0, 5);
    proj = perspective(0.8f, 160.0f / 120.0f, 1.0f, 50.0f);
    D3DMATRIX v = to_d3d(view), p = to_d3d(proj);
    dev->SetTransform(D3DTS_VIEW, &v);
    dev->SetTransform(D3DTS_PROJECTION, &p);
    D3DVIEWPORT8 vp = {0, 0, 160, 120, 0.0f, 1.0f};
    dev->SetViewport(&vp);
    dev->SetRenderState(D3DRS_ZENABLE, D3DZB_TRUE);
    dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE);
    dev->SetRenderState(D3DRS_AMBIENT, 0xFF202020);
    set_lights();
    return true;
}

bool App::fill_cube() {
    static const float n[6][3] = {{0, 0, -1}, {0, 0, 1}, {-1, 0, 0}, {1, 0, 0}, {0, -1, 0}, {0, 1, 0}};
    HRESULT hr = dev->CreateVertexBuffer(24 * sizeof(LitVertex), D3DUSAGE_WRITEONLY, kLitFvf, D3DPOOL_MANAGED, &cube_vb);
    if (FAILED(hr)) return fail("CreateVertexBuffer (cube)", hr);
    hr = dev->CreateIndexBuffer(36 * sizeof(WORD), D3DUSAGE_WRITEONLY, D3DFMT_INDEX16, D3DPOOL_MANAGED, &cube_ib);
    if (FAILED(hr)) return fail("CreateIndexBuffer", hr);
    BYTE* p = nullptr;
    if (FAILED(hr = cube_vb->Lock(0, 0, &p, 0))) return fail("Lock (cube)", hr);
    LitVertex* v = reinterpret_cast<LitVertex*>(p);
    for (int f = 0; f < 6; ++f) {
        // Two axes of the face's plane: u, w = n x u.
        const float* N = n[f];
        const float u[3] = {N[1] != 0 ? 1.0f : 0.0f, 0.0f, N[1] != 0 ? 0.0f : (N[0] != 0 ? 1.0f : 0.0f)};
        const float uu[3] = {N[2] != 0 ? 1.0f : u[0], N[0] != 0 ? 0.0f : u[1], N[2] != 0 ? 0.0f : u[2]};
        const float w[3] = {N[1] * uu[2] - N[2] * uu[1], N[2] * uu[0] - N[0] * uu[2], N[0] * uu[1] - N[1] * uu[0]};
        for (int k = 0; k < 4; ++k) {
            const float a = (k & 1) ? 1.0f : -1.0f, b = (k & 2) ? 1.0f : -1.0f;
            LitVertex& x = v[f * 4 + k];
            x.x = N[0] + a * uu[0] + b * w[0];
            x.y = N[1] + a * uu[1] + b * w[1];
            x.z = N[2] + a * uu[2] + b * w[2];
            x.nx = N[0]; x.ny = N[1]; x.nz = N[2];
            x.color = 0xFF000000u | (DWORD(64 + 30 * f) << 16) | (DWORD(200 - 25 * f) << 8) | DWORD(40 * f);
        }
    }
    cube_vb->Unlock();
    if (FAILED(hr = cube_ib->Lock(0, 0, &p, 0))) return fail("Lock (indices)", hr);
    WORD* idx = reinterpret_cast<WORD*>(p);
    for (int f = 0; f < 6; ++f) {
        const WORD b = WORD(f * 4);
        const WORD q[6] = {b, WORD(b + 1), WORD(b + 2), WORD(b + 2), WORD(b + 1), WORD(b + 3)};
        for (int k = 0; k < 6; ++k) idx[f * 6 + k] = q[k];
    }
    cube_ib->Unlock();
    return true;
}

void App::set_lights() {
    D3DLIGHT8 sun{};
    sun.Type = D3DLIGHT_DIRECTIONAL;
    sun.Diffuse = {0.9f, 0.9f, 0.8f, 1.0f};
    sun.Direction = {0.3f, -0.6f, 0.7f};
    dev->SetLight(0, &sun);
    dev->LightEnable(0, TRUE);
    D3DLIGHT8 lamp{};
    lamp.Type = D3DLIGHT_POINT;
    lamp.Diffuse = {0.2f, 0.4f, 1.0f, 1.0f};
    lamp.Position = {-2.0f, 1.0f, -1.0f};
    lamp.Range = 20.0f;
    lamp.Attenuation0 = 1.0f;
    lamp.Attenuation1 = 0.1f;
    dev->SetLight(1, &lamp);
    dev->LightEnable(1, TRUE);
    D3DMATERIAL8 m{};
    m.Diffuse = {1.0f, 1.0f, 1.0f, 1.0f};
    m.Ambient = {1.0f, 1.0f, 1.0f, 1.0f};
    dev->SetMaterial(&m);
}

bool App::draw_ribbon(float t) {
    // Rewritten with DISCARD, then its second half appended with NOOVERWRITE.
    for (int half = 0; half < 2; ++half) {
        BYTE* p = nullptr;
        const UINT off = half * kRibbonVertices * sizeof(ColorVertex);
        HRESULT hr = ribbon_vb->Lock(off, kRibbonVertices * sizeof(ColorVertex), &p,
                                     half ? D3DLOCK_NOOVERWRITE : D3DLOCK_DISCARD);
        if (FAILED(hr)) return fail("Lock (ribbon)", hr);
        ColorVertex* v = reinterpret_cast<ColorVertex*>(p);
        for (UINT i = 0; i < kRibbonVertices; ++i) {
            const float x = -2.0f + 4.0f * float(i / 2) / float(kRibbonVertices / 2 - 1);
            v[i].x = x;
            v[i].y = (half ? -1.6f : 1.4f) + 0.3f * std::sin(2 * x + 3 * t) + ((i & 1) ? 0.25f : 0.0f);
            v[i].z = 0.5f;
            v[i].color = half ? 0xFFFFC040u : 0xFF40C0FFu;
        }
        ribbon_vb->Unlock();
    }
    // c0..c3: (view x projection) transposed, as m4x4 takes it.
    const Mat vp = mul(view, proj);
    float c[16];
    for (int r = 0; r < 4; ++r)
        for (int k = 0; k < 4; ++k) c[r * 4 + k] = vp.m[k][r];
    dev->SetVertexShader(shader);
    dev->SetVertexShaderConstant(0, c, 4);
    dev->SetStreamSource(0, ribbon_vb, sizeof(ColorVertex));
    for (int half = 0; half < 2; ++half) {
        HRESULT hr = dev->DrawPrimitive(D3DPT_TRIANGLESTRIP, half * kRibbonVertices, kRibbonVertices - 2);
        if (FAILED(hr)) return fail("DrawPrimitive", hr);
    }
    return true;
}

bool App::draw_frame(float t) {
    dev->Clear(0, nullptr, D3DCLEAR_TARGET | D3DCLEAR_ZBUFFER, 0xFF101018, 1.0f, 0);
    dev->BeginScene();
    // 1. The lit cube.
    D3DMATRIX world = to_d3d(mul(rotation_x(0.5f * t), rotation_y(t)));
    dev->SetTransform(D3DTS_WORLD, &world);
    dev->SetRenderState(D3DRS_LIGHTING, TRUE);
    dev->SetVertexShader(kLitFvf);
    dev->SetStreamSource(0, cube_vb, sizeof(LitVertex));
    dev->SetIndices(cube_ib, 0);
    HRESULT hr = dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 24, 0, 12);
    if (FAILED(hr)) return fail("DrawIndexedPrimitive", hr);
    // 2. The ribbon through the vertex shader.
    if (!draw_ribbon(t)) return false;
    // 3. An unlit fan from user memory.
    ColorVertex fan[6];
    for (int i = 0; i < 6; ++i) {
        const float a = 0.3f * t + 1.2f * float(i);
        fan[i] = {i ? 2.2f + 0.5f * std::cos(a) : 2.2f, i ? 1.2f + 0.5f * std::sin(a) : 1.2f, 1.0f, 0xFF80FF80u};
    }
    D3DMATRIX id = to_d3d(identity());
    dev->SetTransform(D3DTS_WORLD, &id);
    dev->SetRenderState(D3DRS_LIGHTING, FALSE);
    dev->SetVertexShader(kColorFvf);
    hr = dev->DrawPrimitiveUP(D3DPT_TRIANGLEFAN, 4, fan, sizeof(ColorVertex));
    if (FAILED(hr)) return fail("DrawPrimitiveUP", hr);
    // 4. A lit quad from user memory, indexed.
    const NormalVertex quad[4] = {{-2.8f, -1.0f, 1.0f, 0, 0, -1}, {-1.8f, -1.0f, 1.0f, 0, 0, -1},
                                  {-2.8f, 0.0f, 1.0f, 0, 0, -1}, {-1.8f, 0.0f, 1.0f, 0, 0, -1}};
    const WORD quad_idx[6] = {0, 2, 1, 1, 2, 3};
    dev->SetRenderState(D3DRS_LIGHTING, TRUE);
    dev->SetVertexShader(kNormalFvf);
    hr = dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 0, 4, 2, quad_idx, D3DFMT_INDEX16, quad, sizeof(NormalVertex));
    if (FAILED(hr)) return fail("DrawIndexedPrimitiveUP", hr);
    dev->EndScene();
    hr = dev->Present(nullptr, nullptr, nullptr, nullptr);
    if (FAILED(hr)) return fail("Present", hr);
    return true;
}

void App::release() {
    if (dev && shader) dev->DeleteVertexShader(shader);
    if (ribbon_vb) ribbon_vb->Release();
    if (cube_ib) cube_ib->Release();
    if (cube_vb) cube_vb->Release();
    if (dev) dev->Release();
    if (d3d) d3d->Release();
}

LRESULT CALLBACK window_proc(HWND w, UINT msg, WPARAM wp, LPARAM lp) {
    if (msg == WM_DESTROY) {
        PostQuitMessage(0);
        return 0;
    }
    return DefWindowProcA(w, msg, wp, lp);
}

}  // namespace

int main(int argc, char** argv) {
    const int frames = argc > 1 ? std::atoi(argv[1]) : 5;
    if (frames < 1) {
        std::fprintf(stderr, "d3d8_spin: FRAMES must be a positive number\n");
        return 2;
    }
    WNDCLASSA wc{};
    wc.lpfnWndProc = window_proc;
    wc.hInstance = GetModuleHandleA(nullptr);
    wc.lpszClassName = "vpsim_d3d8_spin";
    RegisterClassA(&wc);
    RECT r = {0, 0, 160, 120};
    AdjustWindowRect(&r, WS_OVERLAPPEDWINDOW, FALSE);
    HWND w = CreateWindowA(wc.lpszClassName, "vpsim d3d8_spin", WS_OVERLAPPEDWINDOW, 0, 0, r.right - r.left,
                           r.bottom - r.top, nullptr, nullptr, wc.hInstance, nullptr);
    if (!w) return fail("CreateWindow", E_FAIL), 1;
    ShowWindow(w, SW_SHOW);
    App app;
    bool ok = app.init(w);
    LARGE_INTEGER freq, start, now;
    QueryPerformanceFrequency(&freq);
    QueryPerformanceCounter(&start);
    for (int f = 0; ok && f < frames; ++f) {
        MSG msg;
        while (PeekMessageA(&msg, nullptr, 0, 0, PM_REMOVE)) DispatchMessageA(&msg);
        QueryPerformanceCounter(&now);
        ok = app.draw_frame(float(double(now.QuadPart - start.QuadPart) / double(freq.QuadPart)));
    }
    const char* after = argc > 2 ? argv[2] : "";
    if (!std::strcmp(after, "crash")) *static_cast<volatile int*>(nullptr) = 1;
    if (!std::strcmp(after, "hang"))
        for (volatile bool forever = true; forever;) Sleep(10);
    app.release();
    DestroyWindow(w);
    std::printf("d3d8_spin: %d frames %s\n", frames, ok ? "drawn" : "failed");
    return ok ? 0 : 1;
}

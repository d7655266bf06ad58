// A small Direct3D 8 program of vpsim's own (docs/capture.md): the workload of the capture test
// for the calls d3d8_spin.cpp does not make — state blocks (CreateStateBlock of the three types,
// BeginStateBlock / EndStateBlock, CaptureStateBlock, ApplyStateBlock, DeleteStateBlock),
// ProcessVertices and Reset — beside MultiplyTransform, DrawIndexedPrimitive, a vertex shader with
// constants, a light, a texture-stage state and a dynamic D3DPOOL_DEFAULT buffer.
//
// The device does software vertex processing. A "probe" is a ProcessVertices of one triangle
// into a system-memory XYZRHW|DIFFUSE buffer followed by a draw of the same triangle with the
// same state: Wine's own transform of the triangle (the bytes the recorder keeps) is what vpsim
// must compute for the draw that follows, which tests/capture/probes.sh checks. The probes' state
// is a world matrix, the viewport and the AMBIENT render state (lighting on, no light enabled, the
// material's ambient white: the colour is AMBIENT), changed by state blocks as D3D8 defines them:
//   1. WORLD = T1, AMBIENT = A1, a viewport V1 smaller than the back buffer
//   2. ApplyStateBlock(ALL block captured at set-up: T0, A0, V0)    -> T0, A0, V0
//   3. T1, A1, V1, then ApplyStateBlock(VERTEXSTATE block: A0)      -> T1, A0, V1 (no transform, no viewport in it)
//   4. AMBIENT = A2, then ApplyStateBlock(PIXELSTATE block)         -> T1, A2 (neither in it)
//   5. ApplyStateBlock(recorded block: WORLD = T3, AMBIENT = A3)     -> T3, A3
//   6. MultiplyTransform(WORLD, S)                                  -> S x T3
//   7. T2, A2, CaptureStateBlock(recorded), T1, A1, ApplyStateBlock -> T2, A2
// At the end of frame 1 the program releases its D3DPOOL_DEFAULT buffer, calls Reset (the back
// buffer 64 x 64 -> 80 x 60), probes the default state (identity transforms, the new back buffer's
// viewport, AMBIENT 0), creates the buffer again and sets its state again.
// Usage: d3d8_calls.exe [FRAMES] (default 3).
#include <windows.h>
#include <d3d8.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <initializer_list>

namespace {

struct Vertex { float x, y, z; DWORD color; };  // XYZ|DIFFUSE
const DWORD kFvf = D3DFVF_XYZ | D3DFVF_DIFFUSE;
const DWORD kOutFvf = D3DFVF_XYZRHW | D3DFVF_DIFFUSE;
const Vertex kTriangle[3] = {{-0.5f, -0.4f, 0.2f, 0xFF808080}, {0.5f, -0.3f, 0.4f, 0xFF808080}, {0.0f, 0.5f, 0.6f, 0xFF808080}};

// vs.1.1: m4x4 oPos, v0, c0; mov oD0, c4 (tokens as D3D8 defines them).
const DWORD kShaderFunction[] = {0xFFFE0101, 0x00000014, 0xC00F0000, 0x90E40000, 0xA0E40000,
                                 0x00000001, 0xD00F0000, 0xA0E40004, 0x0000FFFF};
const DWORD kShaderDecl[] = {D3DVSD_STREAM(0), D3DVSD_REG(0, D3DVSDT_FLOAT3), D3DVSD_REG(5, D3DVSDT_D3DCOLOR), D3DVSD_END()};

D3DMATRIX matrix(float sx, float sy, float tx, float ty, float tz) {
    D3DMATRIX m{};
    m._11 = sx, m._22 = sy, m._33 = 1, m._44 = 1;
    m._41 = tx, m._42 = ty, m._43 = tz;
    return m;
}
D3DMATRIX perspective() {  // left-handed, 90 degrees, aspect 1, z 0.1 .. 10
    D3DMATRIX m{};
    m._11 = 1, m._22 = 1, m._33 = 10.0f / 9.9f, m._34 = 1, m._43 = -0.1f * 10.0f / 9.9f;
    return m;
}

bool fail(const char* what, HRESULT hr) {
    std::fprintf(stderr, "d3d8_calls: %s failed (0x%08lx)\n", what, static_cast<unsigned long>(hr));
    return false;
}
#define CHECK(call)                                  \
    do {                                             \
        HRESULT hr_ = (call);                        \
        if (FAILED(hr_)) return fail(#call, hr_);    \
    } while (0)

struct App {
    IDirect3D8* d3d = nullptr;
    IDirect3DDevice8* dev = nullptr;
    IDirect3DVertexBuffer8 *src = nullptr, *dst = nullptr, *dyn = nullptr;
    IDirect3DIndexBuffer8* ib = nullptr;
    DWORD all = 0, vertex = 0, pixel = 0, recorded = 0, shader = 0;
    D3DPRESENT_PARAMETERS pp{};

    bool init(HWND w);
    bool set_state();
    bool create_dynamic();
    bool probe(bool indexed);
    bool frame(int f);
    bool reset();
    void release();
};

bool App::init(HWND w) {
    d3d = Direct3DCreate8(D3D_SDK_VERSION);
    if (!d3d) return fail("Direct3DCreate8", E_FAIL);
    D3DDISPLAYMODE mode;
    CHECK(d3d->GetAdapterDisplayMode(D3DADAPTER_DEFAULT, &mode));
    pp.Windowed = TRUE;
    pp.SwapEffect = D3DSWAPEFFECT_DISCARD;
    pp.BackBufferFormat = mode.Format;
    pp.BackBufferWidth = 64;
    pp.BackBufferHeight = 64;
    CHECK(d3d->CreateDevice(D3DADAPTER_DEFAULT, D3DDEVTYPE_HAL, w, D3DCREATE_SOFTWARE_VERTEXPROCESSING, &pp, &dev));
    CHECK(dev->CreateVertexBuffer(sizeof kTriangle, D3DUSAGE_WRITEONLY, kFvf, D3DPOOL_MANAGED, &src));
    BYTE* p = nullptr;
    CHECK(src->Lock(0, 0, &p, 0));
    std::memcpy(p, kTriangle, sizeof kTriangle);
    CHECK(src->Unlock());
    CHECK(dev->CreateVertexBuffer(3 * 20, 0, kOutFvf, D3DPOOL_SYSTEMMEM, &dst));
    CHECK(dev->CreateIndexBuffer(6, D3DUSAGE_WRITEONLY, D3DFMT_INDEX16, D3DPOOL_MANAGED, &ib));
    CHECK(ib->Lock(0, 0, &p, 0));
    const WORD idx[3] = {0, 1, 2};
    std::memcpy(p, idx, sizeof idx);
    CHECK(ib->Unlock());
    CHECK(dev->CreateVertexShader(kShaderDecl, kShaderFunction, &shader, 0));
    if (!create_dynamic() || !set_state()) return false;
    // The blocks of set-up: WORLD = T0, AMBIENT = A0 (red) captured by ALL and VERTEXSTATE.
    CHECK(dev->CreateStateBlock(D3DSBT_ALL, &all));
    CHECK(dev->CreateStateBlock(D3DSBT_VERTEXSTATE, &vertex));
    CHECK(dev->CreateStateBlock(D3DSBT_PIXELSTATE, &pixel));
    // Recorded: WORLD = T3, AMBIENT = A3 (blue); the device keeps T0, A0 meanwhile.
    CHECK(dev->BeginStateBlock());
    const D3DMATRIX t3 = matrix(0.5f, 0.5f, -0.3f, 0.2f, 2.0f);
    CHECK(dev->SetTransform(D3DTS_WORLD, &t3));
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFF2020C0));
    CHECK(dev->EndStateBlock(&recorded));
    return true;
}

bool App::create_dynamic() {
    CHECK(dev->CreateVertexBuffer(8 * sizeof(Vertex), D3DUSAGE_DYNAMIC | D3DUSAGE_WRITEONLY, kFvf, D3DPOOL_DEFAULT, &dyn));
    return true;
}

bool App::set_state() {
    const D3DMATRIX view = matrix(1, 1, 0, 0, 0), proj = perspective(), t0 = matrix(1, 1, 0, 0, 2.5f);
    CHECK(dev->SetTransform(D3DTS_VIEW, &view));
    CHECK(dev->SetTransform(D3DTS_PROJECTION, &proj));
    CHECK(dev->SetTransform(D3DTS_WORLD, &t0));
    D3DVIEWPORT8 vp = {0, 0, pp.BackBufferWidth, pp.BackBufferHeight, 0.0f, 1.0f};
    CHECK(dev->SetViewport(&vp));
    D3DMATERIAL8 m{};
    m.Ambient.r = m.Ambient.g = m.Ambient.b = m.Ambient.a = 1;
    m.Diffuse.a = 1;
    CHECK(dev->SetMaterial(&m));
    CHECK(dev->SetRenderState(D3DRS_LIGHTING, TRUE));
    CHECK(dev->SetRenderState(D3DRS_COLORVERTEX, FALSE));
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFFC02020));
    CHECK(dev->SetRenderState(D3DRS_CULLMODE, D3DCULL_NONE));
    CHECK(dev->SetRenderState(D3DRS_ZENABLE, FALSE));
    CHECK(dev->SetTextureStageState(0, D3DTSS_TEXCOORDINDEX, 0));
    D3DLIGHT8 l{};
    l.Type = D3DLIGHT_DIRECTIONAL;
    l.Diffuse.r = l.Diffuse.g = l.Diffuse.b = 1;
    l.Direction.z = 1;
    CHECK(dev->SetLight(0, &l));
    CHECK(dev->LightEnable(0, FALSE));
    CHECK(dev->SetVertexShader(kFvf));
    return true;
}

// ProcessVertices of the triangle, then the same triangle drawn.
bool App::probe(bool indexed) {
    CHECK(dev->SetStreamSource(0, src, sizeof(Vertex)));
    CHECK(dev->ProcessVertices(0, 0, 3, dst, 0));
    if (indexed) {
        CHECK(dev->SetIndices(ib, 0));
        CHECK(dev->DrawIndexedPrimitive(D3DPT_TRIANGLELIST, 0, 3, 0, 1));
    } else {
        CHECK(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 0, 1));
    }
    return true;
}

bool App::frame(int f) {
    CHECK(dev->Clear(0, nullptr, D3DCLEAR_TARGET, 0xFF000000, 1.0f, 0));
    CHECK(dev->BeginScene());
    const float s = 0.1f * float(f);
    const D3DMATRIX t1 = matrix(1, 1, 0.2f + s, -0.1f, 3.0f), t2 = matrix(0.8f, 1.2f, -0.2f, 0.1f, 2.0f),
                    scale = matrix(1.5f, 0.5f, 0.1f, 0, 0);
    D3DVIEWPORT8 small = {8, 4, 48, 40, 0.0f, 1.0f};
    // 1.
    CHECK(dev->SetTransform(D3DTS_WORLD, &t1));
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFF20C020));
    CHECK(dev->SetViewport(&small));
    if (!probe(false)) return false;
    // 2.
    CHECK(dev->ApplyStateBlock(all));
    if (!probe(true)) return false;
    // 3.
    CHECK(dev->SetTransform(D3DTS_WORLD, &t1));
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFF20C020));
    CHECK(dev->SetViewport(&small));
    CHECK(dev->ApplyStateBlock(vertex));
    if (!probe(false)) return false;
    // 4.
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFF808000));
    CHECK(dev->ApplyStateBlock(pixel));
    if (!probe(false)) return false;
    // 5.
    CHECK(dev->ApplyStateBlock(recorded));
    if (!probe(false)) return false;
    // 6.
    CHECK(dev->MultiplyTransform(D3DTS_WORLD, &scale));
    if (!probe(false)) return false;
    // 7.
    CHECK(dev->SetTransform(D3DTS_WORLD, &t2));
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFF808000));
    CHECK(dev->CaptureStateBlock(recorded));
    CHECK(dev->SetTransform(D3DTS_WORLD, &t1));
    CHECK(dev->SetRenderState(D3DRS_AMBIENT, 0xFF20C020));
    CHECK(dev->ApplyStateBlock(recorded));
    if (!probe(false)) return false;
    // A dynamic buffer: rewritten with DISCARD, appended to with NOOVERWRITE; a shader draw from it.
    BYTE* p = nullptr;
    CHECK(dyn->Lock(0, sizeof kTriangle, &p, D3DLOCK_DISCARD));
    std::memcpy(p, kTriangle, sizeof kTriangle);
    CHECK(dyn->Unlock());
    CHECK(dyn->Lock(sizeof kTriangle, sizeof kTriangle, &p, D3DLOCK_NOOVERWRITE));
    std::memcpy(p, kTriangle, sizeof kTriangle);
    CHECK(dyn->Unlock());
    const float c[8] = {1, 0, 0, 0, 0, 1, 0, 0};
    const float rows[8] = {0, 0, 1, 0, 0, 0, 0.2f, 3.0f};
    const float colour[4] = {0.25f, 0.5f, 0.75f, 1.0f};
    CHECK(dev->SetVertexShader(shader));
    CHECK(dev->SetVertexShaderConstant(0, c, 2));
    CHECK(dev->SetVertexShaderConstant(2, rows, 2));
    CHECK(dev->SetVertexShaderConstant(4, colour, 1));
    CHECK(dev->SetStreamSource(0, dyn, sizeof(Vertex)));
    CHECK(dev->DrawPrimitive(D3DPT_TRIANGLELIST, 3, 1));
    CHECK(dev->SetVertexShader(kFvf));
    CHECK(dev->DrawPrimitiveUP(D3DPT_TRIANGLELIST, 1, kTriangle, sizeof(Vertex)));
    const WORD idx[3] = {2, 1, 0};
    CHECK(dev->DrawIndexedPrimitiveUP(D3DPT_TRIANGLELIST, 0, 3, 1, idx, D3DFMT_INDEX16, kTriangle, sizeof(Vertex)));
    CHECK(dev->EndScene());
    CHECK(dev->Present(nullptr, nullptr, nullptr, nullptr));
    return f != 1 || reset();
}

// Reset to 80 x 60: the D3DPOOL_DEFAULT buffer released first (D3D8 requires it), the default
// state probed, then the buffer and the state again. The frame ends with a Present.
bool App::reset() {
    dyn->Release();
    dyn = nullptr;
    pp.BackBufferWidth = 80;
    pp.BackBufferHeight = 60;
    CHECK(dev->Reset(&pp));
    CHECK(dev->BeginScene());
    CHECK(dev->SetVertexShader(kFvf));  // none after a Reset
    if (!probe(false)) return false;
    CHECK(dev->EndScene());
    CHECK(dev->Present(nullptr, nullptr, nullptr, nullptr));
    return create_dynamic() && set_state();
}

void App::release() {
    if (dev) {
        dev->DeleteStateBlock(all);
        dev->DeleteStateBlock(vertex);
        dev->DeleteStateBlock(pixel);
        dev->DeleteStateBlock(recorded);
        if (shader) dev->DeleteVertexShader(shader);
        dev->Present(nullptr, nullptr, nullptr, nullptr);  // the deletes end in a frame of their own
    }
    for (IUnknown* u : {static_cast<IUnknown*>(ib), static_cast<IUnknown*>(dyn), static_cast<IUnknown*>(dst),
                        static_cast<IUnknown*>(src), static_cast<IUnknown*>(dev), static_cast<IUnknown*>(d3d)})
        if (u) u->Release();
}

}  // namespace

int main(int argc, char** argv) {
    const int frames = argc > 1 ? std::atoi(argv[1]) : 3;
    if (frames < 1) {
        std::fprintf(stderr, "d3d8_calls: FRAMES must be a positive number\n");
        return 2;
    }
    WNDCLASSA wc{};
    wc.lpfnWndProc = DefWindowProcA;
    wc.hInstance = GetModuleHandleA(nullptr);
    wc.lpszClassName = "vpsim_d3d8_calls";
    RegisterClassA(&wc);
    HWND w = CreateWindowA(wc.lpszClassName, "vpsim d3d8_calls", WS_OVERLAPPEDWINDOW, 0, 0, 100, 100, nullptr, nullptr,
                           wc.hInstance, nullptr);
    if (!w) return fail("CreateWindow", E_FAIL), 1;
    ShowWindow(w, SW_SHOW);
    App app;
    bool ok = app.init(w);
    for (int f = 0; ok && f < frames; ++f) {
        MSG msg;
        while (PeekMessageA(&msg, nullptr, 0, 0, PM_REMOVE)) DispatchMessageA(&msg);
        ok = app.frame(f);
    }
    app.release();
    DestroyWindow(w);
    std::printf("d3d8_calls: %d frames %s\n", frames, ok ? "drawn" : "failed");
    return ok ? 0 : 1;
}

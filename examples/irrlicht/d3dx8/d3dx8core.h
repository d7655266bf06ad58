// The part of d3dx8's d3dx8core.h that Irrlicht 1.8.5's Direct3D 8 driver uses: ID3DXBuffer and
// D3DXAssembleShader. mingw-w64 ships d3d8.h but no d3dx8; the functions are implemented by
// d3dx8_compat.cpp (see docs/real-frames.md), which assembles with Wine's d3dx9_36 at run time.
#ifndef VPSIM_D3DX8CORE_H
#define VPSIM_D3DX8CORE_H

#include <d3d8.h>

// d3dx8's buffer object: a block of bytes behind IUnknown.
struct ID3DXBuffer : public IUnknown {
  virtual LPVOID STDMETHODCALLTYPE GetBufferPointer() = 0;
  virtual DWORD STDMETHODCALLTYPE GetBufferSize() = 0;
};
typedef ID3DXBuffer *LPD3DXBUFFER;

#define D3DXASM_DEBUG 1
#define D3DXASM_SKIPVALIDATION 2

// d3dx8's signature: the source text, its length, flags; the vertex shader's def constants as
// declaration tokens (may be null), the function tokens, the error text (may be null).
extern "C" HRESULT WINAPI D3DXAssembleShader(LPCVOID src, UINT src_len, DWORD flags,
                                             LPD3DXBUFFER *constants, LPD3DXBUFFER *shader,
                                             LPD3DXBUFFER *errors);
extern "C" HRESULT WINAPI D3DXAssembleShaderFromFileA(LPCSTR file, DWORD flags,
                                                      LPD3DXBUFFER *constants,
                                                      LPD3DXBUFFER *shader,
                                                      LPD3DXBUFFER *errors);
#define D3DXAssembleShaderFromFile D3DXAssembleShaderFromFileA

#endif

// d3dx8's D3DXAssembleShader for Irrlicht 1.8.5's Direct3D 8 driver, built with mingw-w64 (which
// has no d3dx8). It assembles with Wine's d3dx9_36.dll, loaded at run time, then makes the tokens
// D3D8's (d3dx8_tokens.h: dcl removed, a vertex shader's def constants moved out as declaration
// tokens, as d3dx8 returned them).
#include "d3dx8core.h"

#include <windows.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "d3dx8_tokens.h"

namespace {

// An ID3DXBuffer holding a copy of some bytes.
class Buffer final : public ID3DXBuffer {
 public:
  Buffer(const void *data, size_t size) : bytes_(size) {
    if (size) std::memcpy(bytes_.data(), data, size);
  }
  virtual ~Buffer() = default;
  HRESULT STDMETHODCALLTYPE QueryInterface(REFIID, void **out) override {
    *out = nullptr;
    return E_NOINTERFACE;
  }
  ULONG STDMETHODCALLTYPE AddRef() override { return ++refs_; }
  ULONG STDMETHODCALLTYPE Release() override {
    const ULONG left = --refs_;
    if (left == 0) delete this;
    return left;
  }
  LPVOID STDMETHODCALLTYPE GetBufferPointer() override { return bytes_.data(); }
  DWORD STDMETHODCALLTYPE GetBufferSize() override { return static_cast<DWORD>(bytes_.size()); }

 private:
  std::vector<unsigned char> bytes_;
  ULONG refs_ = 1;
};

void give_text(LPD3DXBUFFER *errors, const std::string &text) {
  if (errors) *errors = new Buffer(text.c_str(), text.size() + 1);
}

// d3dx9's D3DXAssembleShader: (data, length, defines, include, flags, shader, errors). Its
// buffers have the layout of ID3DXBuffer above (IUnknown, GetBufferPointer, GetBufferSize).
typedef HRESULT(WINAPI *Assemble9)(LPCSTR, UINT, const void *, void *, DWORD, LPD3DXBUFFER *,
                                   LPD3DXBUFFER *);

Assemble9 d3dx9_assembler() {
  static Assemble9 fn = nullptr;
  if (!fn) {
    HMODULE dll = LoadLibraryA("d3dx9_36.dll");
    // through void*: FARPROC is the generic function pointer GetProcAddress returns
    if (dll)
      fn = reinterpret_cast<Assemble9>(
          reinterpret_cast<void *>(GetProcAddress(dll, "D3DXAssembleShader")));
  }
  return fn;
}

}  // namespace

extern "C" HRESULT WINAPI D3DXAssembleShader(LPCVOID src, UINT src_len, DWORD,
                                             LPD3DXBUFFER *constants, LPD3DXBUFFER *shader,
                                             LPD3DXBUFFER *errors) {
  if (constants) *constants = nullptr;
  if (shader) *shader = nullptr;
  if (errors) *errors = nullptr;
  Assemble9 assemble = d3dx9_assembler();
  if (!assemble) {
    give_text(errors, "d3dx8 layer: d3dx9_36.dll or its D3DXAssembleShader not found\n");
    return E_FAIL;
  }
  LPD3DXBUFFER code9 = nullptr, errors9 = nullptr;
  const HRESULT hr = assemble(static_cast<LPCSTR>(src), src_len, nullptr, nullptr, 0, &code9,
                              &errors9);
  if (FAILED(hr) || !code9) {
    std::string text = "d3dx8 layer: d3dx9_36 D3DXAssembleShader failed";
    if (errors9) text += std::string(": ") + static_cast<const char *>(errors9->GetBufferPointer());
    give_text(errors, text + "\n");
    if (errors9) errors9->Release();
    if (code9) code9->Release();
    return FAILED(hr) ? hr : E_FAIL;
  }
  if (errors9) errors9->Release();  // warnings: d3dx8's callers take any error text as failure
  const d3dx8::Rewritten out =
      d3dx8::rewrite(static_cast<const uint32_t *>(code9->GetBufferPointer()),
                     code9->GetBufferSize() / 4);
  code9->Release();
  if (!out.error.empty()) {
    give_text(errors, "d3dx8 layer: the assembled tokens: " + out.error + "\n");
    return E_FAIL;
  }
  if (shader) *shader = new Buffer(out.function.data(), out.function.size() * 4);
  if (constants && !out.constants.empty())
    *constants = new Buffer(out.constants.data(), out.constants.size() * 4);
  return S_OK;
}

extern "C" HRESULT WINAPI D3DXAssembleShaderFromFileA(LPCSTR file, DWORD flags,
                                                      LPD3DXBUFFER *constants,
                                                      LPD3DXBUFFER *shader,
                                                      LPD3DXBUFFER *errors) {
  std::FILE *f = std::fopen(file, "rb");
  if (!f) {
    if (shader) *shader = nullptr;
    if (constants) *constants = nullptr;
    give_text(errors, std::string("d3dx8 layer: cannot open ") + file + "\n");
    return E_FAIL;
  }
  std::string text;
  char chunk[4096];
  size_t got;
  while ((got = std::fread(chunk, 1, sizeof chunk, f)) > 0) text.append(chunk, got);
  std::fclose(f);
  return D3DXAssembleShader(text.data(), static_cast<UINT>(text.size()), flags, constants, shader,
                            errors);
}

// Forced into every Irrlicht example scripts/irrlicht.sh builds (g++ -include), so that the
// examples run without a person (docs/real-frames.md):
// - they pick Direct3D 8 without asking: Irrlicht's driverChoice.h is read first (its include
//   guard keeps the example's own #include from reading it again), then its function's name
//   means Direct3D 8, and so does EDT_SOFTWARE (01.HelloWorld asks for the software renderer in
//   its source). Questions an example asks on its console itself are answered by
//   VPSIM_IRR_STDIN, a string the script compiles in per example: std::cin reads it (vpsim
//   capture run gives the program no standard input);
// - d3d8.dll is loaded before main, so the recorder's virtual clock is the only one read;
// - a reference picture: with VPSIM_IRR_SHOT_FRAME=N and VPSIM_IRR_SHOT_FILE=F.bmp in the
//   environment, after the endScene that presented frame N (frame numbers as in a capture: the
//   first Present ends frame 0), just before that frame's Present, the example copies the D3D8
//   back buffer into a system-memory surface and writes it as a BMP (the engine's own
//   createScreenShot reads the front buffer, which fails under Wine in Xvfb, and after Present
//   the back buffer is discarded). createDevice / createDeviceEx patch Present for it. Without
//   the variables nothing else happens.
#ifndef VPSIM_IRRLICHT_D3D8_H
#define VPSIM_IRRLICHT_D3D8_H
#include <irrlicht.h>
#include <driverChoice.h>

#include <d3d8.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <sstream>
#include <vector>

namespace vpsim_irr {

// The recorder virtualises the program's timers when d3d8.dll is loaded (its DllMain); Irrlicht
// loads d3d8.dll only when it makes its device, after its timer has read the real clock, so
// animations would start from a real time and differ run to run. Loading it before main keeps
// every timer read virtual (without the recorder it loads Wine's d3d8, which changes nothing).
struct LoadD3d8Early {
  LoadD3d8Early() { LoadLibraryA("d3d8.dll"); }
};
static LoadD3d8Early load_d3d8_early;

#ifdef VPSIM_IRR_STDIN
// std::cin reads the compiled-in answers from before main on.
struct Answers {
  std::istringstream text{VPSIM_IRR_STDIN};
  Answers() { std::cin.rdbuf(text.rdbuf()); }
};
static Answers answers;
#endif

// Writes the back buffer of the D3D8 device as a 24-bit BMP (bottom-up rows); returns the file, or
// the step that failed.
inline const char *save_back_buffer(IDirect3DDevice8 *dev, const char *file) {
  IDirect3DSurface8 *back = nullptr, *copy = nullptr;
  if (FAILED(dev->GetBackBuffer(0, D3DBACKBUFFER_TYPE_MONO, &back))) return "GetBackBuffer failed";
  D3DSURFACE_DESC desc;
  back->GetDesc(&desc);
  const char *result = nullptr;
  D3DLOCKED_RECT lr;
  if (desc.Format != D3DFMT_X8R8G8B8 && desc.Format != D3DFMT_A8R8G8B8) {
    result = "the back buffer is not 32-bit";
  } else if (FAILED(dev->CreateImageSurface(desc.Width, desc.Height, desc.Format, &copy))) {
    result = "CreateImageSurface failed";
  } else if (FAILED(dev->CopyRects(back, nullptr, 0, copy, nullptr))) {
    result = "CopyRects failed";
  } else if (FAILED(copy->LockRect(&lr, nullptr, D3DLOCK_READONLY))) {
    result = "LockRect failed";
  } else {
    std::FILE *f = std::fopen(file, "wb");
    if (!f) {
      result = "cannot write the file";
    } else {
      const unsigned w = desc.Width, h = desc.Height, row = (w * 3 + 3) & ~3u;
      const unsigned size = 54 + row * h;
      unsigned char head[54] = {'B', 'M'};
      auto put = [&head](int at, unsigned v) {
        for (int i = 0; i < 4; ++i) head[at + i] = static_cast<unsigned char>(v >> (8 * i));
      };
      put(2, size), put(10, 54), put(14, 40), put(18, w), put(22, h);
      head[26] = 1, head[28] = 24;
      put(34, row * h);
      std::fwrite(head, 1, 54, f);
      std::vector<unsigned char> line(row, 0);
      for (unsigned y = h; y-- > 0;) {
        const unsigned char *p = static_cast<const unsigned char *>(lr.pBits) + y * lr.Pitch;
        for (unsigned x = 0; x < w; ++x)
          line[3 * x] = p[4 * x], line[3 * x + 1] = p[4 * x + 1], line[3 * x + 2] = p[4 * x + 2];
        std::fwrite(line.data(), 1, row, f);
      }
      std::fclose(f);
    }
    copy->UnlockRect();
  }
  if (copy) copy->Release();
  back->Release();
  return result ? result : file;
}

// IDirect3DDevice8::Present (vtable entry 15) as it was before ours: the recorder's, when it runs.
typedef HRESULT(STDMETHODCALLTYPE *PresentFn)(IDirect3DDevice8 *, const RECT *, const RECT *, HWND,
                                              const RGNDATA *);
inline PresentFn &original_present() {
  static PresentFn fn = nullptr;
  return fn;
}

inline HRESULT STDMETHODCALLTYPE present(IDirect3DDevice8 *dev, const RECT *src, const RECT *dst,
                                         HWND window, const RGNDATA *dirty) {
  static long frame = 0;
  const char *want = std::getenv("VPSIM_IRR_SHOT_FRAME");
  const char *file = std::getenv("VPSIM_IRR_SHOT_FILE");
  if (want && file && frame == std::atol(want))
    std::fprintf(stderr, "vpsim_irr: frame %ld: %s\n", frame, save_back_buffer(dev, file));
  ++frame;
  return original_present()(dev, src, dst, window, dirty);
}

// After the device is made: with VPSIM_IRR_SHOT_FRAME set, Present of its D3D8 device is patched
// in its vtable (as the recorder does) so the back buffer is read before the frame is presented.
inline irr::IrrlichtDevice *remember(irr::IrrlichtDevice *d) {
  if (!d || !std::getenv("VPSIM_IRR_SHOT_FRAME") || original_present()) return d;
  void *dev = d->getVideoDriver()->getExposedVideoData().D3D8.D3DDev8;
  if (!dev) return d;
  void **vtable = *static_cast<void ***>(dev);
  DWORD old;
  if (VirtualProtect(&vtable[15], sizeof(void *), PAGE_EXECUTE_READWRITE, &old)) {
    original_present() = reinterpret_cast<PresentFn>(vtable[15]);
    vtable[15] = reinterpret_cast<void *>(&present);
    VirtualProtect(&vtable[15], sizeof(void *), old, &old);
  }
  return d;
}

}  // namespace vpsim_irr

#define driverChoiceConsole(...) (irr::video::EDT_DIRECT3D8)
#define EDT_SOFTWARE EDT_DIRECT3D8
#define createDevice(...) vpsim_irr::remember(irr::createDevice(__VA_ARGS__))
#define createDeviceEx(...) vpsim_irr::remember(irr::createDeviceEx(__VA_ARGS__))
#endif

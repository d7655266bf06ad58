// Forced into every Irrlicht example scripts/irrlicht.sh builds (g++ -include), so that the
// examples run without a person (docs/real-frames.md):
// - they pick Direct3D 8 without asking: Irrlicht's driverChoice.h is read first (its include
//   guard keeps the example's own #include from reading it again), then its function's name
//   means Direct3D 8, and so does EDT_SOFTWARE (01.HelloWorld asks for the software renderer in
//   its source). Questions an example asks on its console itself are answered on its standard
//   input by the script;
// - a reference picture: with VPSIM_IRR_SHOT_FRAME=N and VPSIM_IRR_SHOT_FILE=F.bmp in the
//   environment, after the endScene that presented frame N (frame numbers as in a capture: the
//   first Present ends frame 0) the example saves the front buffer with the engine's own
//   createScreenShot and writeImageToFile. createDevice / createDeviceEx keep the device for it;
//   endScene is followed by the check. Without the variables nothing else happens.
#ifndef VPSIM_IRRLICHT_D3D8_H
#define VPSIM_IRRLICHT_D3D8_H
#include <irrlicht.h>
#include <driverChoice.h>

#include <cstdlib>

namespace vpsim_irr {

inline irr::IrrlichtDevice *&device() {
  static irr::IrrlichtDevice *d = nullptr;
  return d;
}

inline irr::IrrlichtDevice *remember(irr::IrrlichtDevice *d) {
  device() = d;
  return d;
}

inline bool after_frame() {
  static long presented = 0;
  const char *frame = std::getenv("VPSIM_IRR_SHOT_FRAME");
  const char *file = std::getenv("VPSIM_IRR_SHOT_FILE");
  if (frame && file && device() && presented++ == std::atol(frame)) {
    irr::video::IVideoDriver *driver = device()->getVideoDriver();
    irr::video::IImage *shot = driver->createScreenShot();
    if (shot) {
      driver->writeImageToFile(shot, file);
      shot->drop();
    }
  }
  return true;
}

}  // namespace vpsim_irr

#define driverChoiceConsole(...) (irr::video::EDT_DIRECT3D8)
#define EDT_SOFTWARE EDT_DIRECT3D8
#define createDevice(...) vpsim_irr::remember(irr::createDevice(__VA_ARGS__))
#define createDeviceEx(...) vpsim_irr::remember(irr::createDeviceEx(__VA_ARGS__))
#define endScene() endScene() && vpsim_irr::after_frame()
#endif

// NVIDIA style: a sine wave along x from a Taylor series, the phase wrapped by frc.
#include "nv_constants.h"
#define TIME c[CV_CONSTANTS]
#define SERIES c15
#define TWO_PI c16
vs.1.1
def c15, 1, -0.16666667, 0.0083333, -0.00019841
def c16, 6.2831853, 3.1415927, 0.15915494, 0.5
mul r0.x, V_POSITION.x, TWO_PI.z            // phase in turns
add r0.x, r0.x, TIME.x
frc r0.xy, r0.x
mad r0.x, r0.x, TWO_PI.x, -TWO_PI.y         // to -pi..pi
mul r1.x, r0.x, r0.x                        // x^2
mad r2.x, r1.x, SERIES.w, SERIES.z
mad r2.x, r1.x, r2.x, SERIES.y
mad r2.x, r1.x, r2.x, SERIES.x
mul r2.x, r2.x, r0.x                        // sin
mov r3, V_POSITION
add r3.y, r3.y, r2.x
m4x4 oPos, r3, c[CV_WORLDVIEWPROJ_0]
mov oT0.xy, V_TEXTURE
mov oD0, r2.x

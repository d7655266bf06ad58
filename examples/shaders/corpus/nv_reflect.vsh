// NVIDIA style: world-space reflection for a cube map.
#include "nv_lighting.h"
#define REFLECT r4
vs.1.1
def c12, 2, 0, 0, 1   // c[CV_CONSTANTS]
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
m3x3 WORLD_NORMAL, V_NORMAL, c[CV_WORLD_0]
m4x3 r0, V_POSITION, c[CV_WORLD_0]
add EYE_VECTOR.xyz, r0, -c[CV_EYE]
dp3 r3.x, WORLD_NORMAL, EYE_VECTOR
mul r3.x, r3.x, c[CV_CONSTANTS].x
mad REFLECT.xyz, WORLD_NORMAL, -r3.x, EYE_VECTOR
mov oT0.xyz, REFLECT
mov oD0, c[CV_AMBIENT]

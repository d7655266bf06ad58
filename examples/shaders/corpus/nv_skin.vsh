// NVIDIA style: two-bone skinning with a function-like macro per bone.
#include "nv_constants.h"
#define V_WEIGHTS v1
#define V_INDICES v2
#define BONES 30
#define SKIN_BONE(i) mov a0.x, r9.i    // load bone index i
#define SKIN_POS(out) m4x3 out, V_POSITION, c[a0.x + BONES]
vs.1.1
def c29, 3, 1, 0, 0
mul r9, V_INDICES, c29.x
SKIN_BONE(x)
SKIN_POS(r0)
SKIN_BONE(y)
SKIN_POS(r1)
mul r0.xyz, r0, V_WEIGHTS.x
add r2.x, c29.y, -V_WEIGHTS.x
mad r0.xyz, r1, r2.x, r0
mov r0.w, c29.y
m4x4 oPos, r0, c[CV_WORLDVIEWPROJ_0]
mov oD0, V_WEIGHTS
mov oT0.xy, V_TEXTURE

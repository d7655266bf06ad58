// NVIDIA style: vertex fog, linear by default, range-based with -D FOG_RANGE.
#include "nv_constants.h"
vs.1.1
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
m4x3 r0, V_POSITION, c[CV_WORLD_0]
#ifdef FOG_RANGE
add r1, r0, -c[CV_EYE]
dp3 r1.x, r1, r1
rsq r1.x, r1.x
rcp r1.x, r1.x              // distance to the eye
#else
mov r1.x, r0.z              // depth only
#endif
#if defined(FOG_EXP) && FOG_EXP > 1
#error FOG_EXP > 1 is not supported by this shader
#endif
mad oFog.x, -r1.x, c[CV_FOG].y, c[CV_FOG].x
mov oD0, c[CV_AMBIENT]
mov oT0.xy, V_TEXTURE

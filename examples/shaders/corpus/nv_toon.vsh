// NVIDIA style: cartoon shading, N.L as a texture coordinate into a 1-D ramp.
#include "nv_lighting.h"
#define RAMP_U(dst) mov oT0.x, dst.x
vs.1.1
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
m3x3 WORLD_NORMAL, V_NORMAL, c[CV_WORLD_0]
DIFFUSE_TERM(r0, WORLD_NORMAL)
max r0.x, r0.x, c[CV_CONSTANTS].x
RAMP_U(r0)
mov oT0.y, c[CV_CONSTANTS].y
mov oD0, c[CV_DIFFUSE]

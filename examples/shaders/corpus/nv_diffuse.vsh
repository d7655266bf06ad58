// NVIDIA style: directional diffuse with the helpers of nv_lighting.h.
#include "nv_lighting.h"
vs.1.1
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
m3x3 WORLD_NORMAL, V_NORMAL, c[CV_WORLD_0]
DIFFUSE_TERM(r0, WORLD_NORMAL)
max r0.x, r0.x, c[CV_CONSTANTS].x
mad oD0, r0.x, c[CV_DIFFUSE], c[CV_DIFFUSE].w
mov oT0.xy, V_TEXTURE

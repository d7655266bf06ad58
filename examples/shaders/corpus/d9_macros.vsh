// D3D9 vs_1_1 with the preprocessor: #define names, an #include, and dcl_ lines.
#include "nv_constants.h"
#define SCALE c20
vs_1_1
def c20, 2, 2, 1, 1
dcl_position V_POSITION
dcl_normal V_NORMAL
dcl_texcoord0 V_TEXTURE
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
mul oT0.xy, V_TEXTURE, SCALE
m3x3 r0, V_NORMAL, c[CV_WORLD_0]
dp3 oD0, r0, -c[CV_LIGHT_DIRECTION]

// NVIDIA style: transform and pass the texture coordinate.
#include "nv_constants.h"
vs.1.1
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
mov oT0.xy, V_TEXTURE
mov oD0, c[CV_AMBIENT]

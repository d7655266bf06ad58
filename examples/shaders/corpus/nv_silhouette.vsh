// NVIDIA style: silhouette fade from N.E, the include chain nv_lighting.h -> nv_constants.h.
#include "nv_lighting.h"
#ifndef CV_EYE
#error nv_constants.h was not included
#endif
vs.1.1
m4x4 oPos, V_POSITION, c[CV_WORLDVIEWPROJ_0]
add EYE_VECTOR, c[CV_EYE], -V_POSITION
dp3 EYE_VECTOR.w, EYE_VECTOR, EYE_VECTOR
rsq EYE_VECTOR.w, EYE_VECTOR.w
mul EYE_VECTOR.xyz, EYE_VECTOR, EYE_VECTOR.w
dp3 r0.x, V_NORMAL, EYE_VECTOR
max r0.x, r0.x, -r0.x                      // |N.E|
mul oD0, r0.x, c[CV_DIFFUSE]
mov oT0.xy, V_TEXTURE

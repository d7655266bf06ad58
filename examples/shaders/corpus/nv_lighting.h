// Lighting helpers built on the constant map (an include that includes).
#include "nv_constants.h"

#define WORLD_NORMAL r1
#define EYE_VECTOR r2

// N.L into dst.x (one instruction: the assembler takes one instruction a line)
#define DIFFUSE_TERM(dst, n) dp3 dst.x, n, -c[CV_LIGHT_DIRECTION]

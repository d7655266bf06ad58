// NVIDIA SDK style constant map shared by the nv_*.vsh shaders (nvasm runs the C preprocessor).
#define CV_WORLDVIEWPROJ_0 0
#define CV_WORLDVIEWPROJ_1 1
#define CV_WORLDVIEWPROJ_2 2
#define CV_WORLDVIEWPROJ_3 3
#define CV_WORLD_0 4
#define CV_WORLD_1 5
#define CV_WORLD_2 6
#define CV_LIGHT_DIRECTION 8
#define CV_DIFFUSE 9
#define CV_SPECULAR 10
#define CV_EYE 11
#define CV_CONSTANTS 12
#define CV_AMBIENT 13
#define CV_FOG 14

// Input registers
#define V_POSITION v0
#define V_NORMAL v3
#define V_TEXTURE v7

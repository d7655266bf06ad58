// D3D9 vs_1_1: sphere map coordinates from the eye-space normal.
vs_1_1
def c12, 0.5, 0.5, 0, 1
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 oPos, v0, c0
m3x3 r0, v3, c4
mad oT0.xy, r0, c12.x, c12.y
mov oT1.xy, v7
mov oD0, c12.w

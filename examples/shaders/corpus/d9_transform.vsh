// D3D9 vs_1_1: transform, one texture coordinate.
vs_1_1
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 oPos, v0, c0
mov oT0.xy, v7
mov oD0, c13

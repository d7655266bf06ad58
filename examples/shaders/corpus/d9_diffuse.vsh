// D3D9 vs_1_1: directional diffuse (the m3x3 without a mask writes .xyz).
vs_1_1
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 oPos, v0, c0
m3x3 r0, v3, c4
dp3 r1.x, r0, -c8
max r1.x, r1.x, c12.x
mul r2, r1.x, c9
add oD0, r2, c13
mov oT0.xy, v7

// D3D9 vs_1_1: cartoon ramp and an outline term, with sge/slt.
vs_1_1
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 oPos, v0, c0
m3x3 r0, v3, c4
dp3 r1.x, r0, -c8
sge r2.x, r1.x, c12.y
slt r2.y, r1.x, c12.y
mov oT0.x, r1.x
mov oT0.y, r2.x
mul oD0, r2.y, c13
mov oT1.xy, v7

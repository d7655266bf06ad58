// D3D9 vs_1_1: point sprites, the size falling off with distance (oPts).
vs_1_1
def c12, 1, 0.1, 0.01, 8
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 r0, v0, c0
mov oPos, r0
dst r1, r0.zzzz, r0.zzzz       // (1, d, d^2, d)
dp3 r2.x, r1, c12              // 1 + 0.1 d + 0.01 d^2
rcp r2.x, r2.x
mul oPts.x, r2.x, c12.w
mov oD0, v3
mov oT0.xy, v7

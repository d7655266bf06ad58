// D3D9 vs_1_1: two-bone skinning (declaration types by --dcl-type: blendweight FLOAT2,
// blendindices UBYTE4).
vs_1_1
def c29, 3, 1, 0, 0
dcl_position v0
dcl_blendweight v1
dcl_blendindices v2
dcl_normal v3
dcl_texcoord0 v7
mul r1, v2, c29.x
mov a0.x, r1.x
m4x3 r0, v0, c[a0.x + 30]
m3x3 r2, v3, c[a0.x + 30]
mov a0.x, r1.y
m4x3 r3, v0, c[a0.x + 30]
mul r0.xyz, r0, v1.x
add r4.x, c29.y, -v1.x
mad r0.xyz, r3, r4.x, r0
mov r0.w, c29.y
m4x4 oPos, r0, c0
dp3 oD0, r2, -c8
mov oT0.xy, v7

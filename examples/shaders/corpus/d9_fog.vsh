// D3D9 vs_1_1: exponential-looking fog from the eye depth with exp (D3D8: 12 slots).
vs_1_1
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 r0, v0, c0
mov oPos, r0
mul r1.x, r0.z, -c14.y
exp r1.x, r1.x
mov oFog.x, r1.x
mov oD0, c13
mov oT0.xy, v7

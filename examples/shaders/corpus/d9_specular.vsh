// D3D9 vs_1_1: Phong specular through lit, with a def (a D3DVSD_CONST token on D3D8).
vs_1_1
def c12, 0, 0, 0, 24
dcl_position v0
dcl_normal v3
dcl_texcoord0 v7
m4x4 oPos, v0, c0
m3x3 r0, v3, c4
dp3 r1.x, r0, -c8
dp3 r1.y, r0, c11
mov r1.w, c12.w
lit r2, r1
mul r3, r2.y, c9
mad oD0, r2.z, c10, r3
mov oT0.xy, v7

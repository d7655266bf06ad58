; DX8.1 SDK skinmesh3 style: reads r4.w before writing it (the value is the start value 0).
vs.1.1
def c29, 3, 1, 0, 0
mul r1, v2, c29.x
mov a0.x, r1.x
m4x3 r4, v0, c[a0.x + 30]  ; r4.xyz
dp4 r5.x, r4, c29.zzzy     ; reads r4.w: never written yet
mov r4.w, c29.y
mov a0.x, r1.y
m4x3 r6, v0, c[a0.x + 30]
mul r4.xyz, r4, v1.x
add r7.x, c29.y, -v1.x
mad r4.xyz, r6, r7.x, r4
m4x4 oPos, r4, c0
mov oD0, r5.x
mov oT0.xy, v7

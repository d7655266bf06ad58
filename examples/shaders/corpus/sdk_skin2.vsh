; DX8.1 SDK skinmesh2 style: two matrices blended by one weight, indexed by v2 (UBYTE4 indices
; times 3: the bone palette is c[30 + 3i] .. c[32 + 3i], 4x3 each).
; v0 position, v1 weights, v2 indices, v3 normal, v7 texture coordinate
vs.1.1
def c29, 3, 1, 0, 0
mul r1, v2, c29.x          ; indices * 3
mov a0.x, r1.x
m4x3 r0, v0, c[a0.x + 30]  ; position by bone 0 (.xyz)
m3x3 r2, v3, c[a0.x + 30]  ; normal by bone 0
mov a0.x, r1.y
m4x3 r3, v0, c[a0.x + 30]  ; position by bone 1
m3x3 r5, v3, c[a0.x + 30]
mul r0.xyz, r0, v1.x
add r4, c29.y, -v1.x       ; 1 - w0: reads no temp
mad r0.xyz, r3, r4.x, r0   ; blend
mov r0.w, c29.y
m4x4 oPos, r0, c0
mul r2.xyz, r2, v1.x
mad r2.xyz, r5, r4.x, r2
dp3 oD0, r2, -c8
mov oT0.xy, v7

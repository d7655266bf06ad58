; skin2.vsh - two-bone palette skinning with c[a0.x + n] (as examples/shaders/skinning.vsh),
; the blended normal renormalised with rsq, one directional light.
;
; Inputs:    v0  position   v1  blend weight: x = weight of the first bone (the second: 1 - x)
;            v2  blend indices (UBYTE4): x, y = palette entries   v3  normal   v7  texcoord
; Constants: c0..c3  view * projection, transposed
;            c4  (1, 0, 3, 0): one, zero, rows per palette entry
;            c5  L: unit direction towards the light (world space)
;            c6  diffuse colour (material * light)   c7  ambient
;            c10 + 3i .. c12 + 3i  bone i: its 4x3 world matrix, transposed (3 rows)
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oT0
vs.1.1
mul r6.xy, v2, c4.z             ; palette entries -> first rows
mov a0.x, r6.x                  ; first bone
m4x3 r0.xyz, v0, c[a0.x + 10]
m3x3 r3.xyz, v3, c[a0.x + 10]
mov a0.x, r6.y                  ; second bone
m4x3 r1.xyz, v0, c[a0.x + 10]
m3x3 r4.xyz, v3, c[a0.x + 10]
sub r0.xyz, r0, r1              ; p = p1 + w (p0 - p1)
sub r3.xyz, r3, r4              ; n = n1 + w (n0 - n1)
mad r2.xyz, r0, v1.x, r1
mad r3.xyz, r3, v1.x, r4
mov r2.w, c4.x
dp3 r3.w, r3, r3                ; |n|^2
m4x4 oPos, r2, c0
rsq r3.w, r3.w                  ; 1/|n|
mov oT0.xy, v7                  ; independent: pairs with the rsq
mul r3.xyz, r3, r3.w
dp3 r5.x, r3, c5                ; N.L
max r5.x, r5.x, c4.y
mul r5, r5.x, c6
add oD0, r5, c7

; skin4.vsh - four-bone palette skinning with c[a0.x + n]. The weights are compressed:
; SHORT2 pairs scaled so that the four sum to 1 (decompressed by * 1/32768).
;
; Inputs:    v0  position   v1  weights of bones 0, 1 (SHORT2 * 32768)   v2  indices of bones 0, 1
;            v3  normal     v8  weights of bones 2, 3 (SHORT2 * 32768)   v9  indices of bones 2, 3
;            (UBYTE4; bones 2, 3 index the second half of the palette, from entry 3)   v7 texcoord
; Constants: c0..c3  view * projection, transposed
;            c4  (1, 1/32768, 3, 9): one, weight scale, rows per palette entry, rows of entries 0..2
;            c5  L: unit direction towards the light (world space)
;            c6  diffuse colour (material * light)   c7  ambient   c8  (0, 0, 0, 0)
;            c10 + 3i .. c12 + 3i  bone i: its 4x3 world matrix, transposed (3 rows)
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oT0
vs.1.1
mul r7.xy, v1, c4.y             ; w0, w1
mul r7.zw, v8.xxxy, c4.y        ; w2, w3
mul r6.xy, v2, c4.z             ; first rows of bones 0, 1
mad r6.zw, v9.xxxy, c4.z, c4.w  ; first rows of bones 2, 3
mov a0.x, r6.x                  ; bone 0
m4x3 r0.xyz, v0, c[a0.x + 10]
m3x3 r1.xyz, v3, c[a0.x + 10]
mul r0.xyz, r0, r7.x
mul r1.xyz, r1, r7.x
mov a0.x, r6.y                  ; bone 1
m4x3 r2.xyz, v0, c[a0.x + 10]
m3x3 r3.xyz, v3, c[a0.x + 10]
mad r0.xyz, r2, r7.y, r0
mad r1.xyz, r3, r7.y, r1
mov a0.x, r6.z                  ; bone 2
m4x3 r2.xyz, v0, c[a0.x + 10]
m3x3 r3.xyz, v3, c[a0.x + 10]
mad r0.xyz, r2, r7.z, r0
mad r1.xyz, r3, r7.z, r1
mov a0.x, r6.w                  ; bone 3
m4x3 r2.xyz, v0, c[a0.x + 10]
m3x3 r3.xyz, v3, c[a0.x + 10]
mad r0.xyz, r2, r7.w, r0
mad r1.xyz, r3, r7.w, r1
mov r0.w, c4.x
dp3 r1.w, r1, r1                ; |n|^2
m4x4 oPos, r0, c0
rsq r1.w, r1.w                  ; 1/|n|
mov oT0.xy, v7                  ; independent: pairs with the rsq
mul r1.xyz, r1, r1.w
dp3 r5.x, r1, c5                ; N.L
max r5.x, r5.x, c8.x
mul r5, r5.x, c6
add oD0, r5, c7

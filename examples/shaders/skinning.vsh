; skinning.vsh - two-bone palette skinning with relative constant addressing, plus a
; directional diffuse light on the skinned normal.
;
; Inputs:    v0      position (x, y, z, 1)
;            v1      blend weight: x = weight of the first bone (the second gets 1 - x)
;            v2      blend indices: x, y = palette entries of the two bones (D3DVSDT_UBYTE4)
;            v3      normal (object space, unit length)
; Constants: c0..c3  view * projection, transposed
;            c4      (1, 0, 3, 0): one, zero, rows per palette entry
;            c5      L: unit direction towards the light (world space)
;            c6      diffuse colour = material * light (rgba)
;            c10 + 3*i .. c12 + 3*i  bone i: its 4x3 world matrix, transposed (3 rows);
;                    with 96 constants the palette holds bones 0..27
; Outputs:   oPos, oD0 = diffuse * max(N.L, 0)
vs.1.1
mul r6.xy, v2, c4.z             ; palette entry -> first row (3 rows per bone)

mov a0.x, r6.x                  ; first bone
m4x3 r0.xyz, v0, c[a0.x + 10]
m3x3 r3.xyz, v3, c[a0.x + 10]
mov a0.x, r6.y                  ; second bone
m4x3 r1.xyz, v0, c[10 + a0.x]
m3x3 r4.xyz, v3, c[10 + a0.x]

; blend: p = p1 + w * (p0 - p1)
sub r0.xyz, r0, r1
mad r2.xyz, r0, v1.x, r1
mov r2.w, c4.x                  ; w = 1
m4x4 oPos, r2, c0

; the same for the normal, then renormalise
sub r3.xyz, r3, r4
mad r3.xyz, r3, v1.x, r4
dp3 r5.x, r3, r3
rsq r5.x, r5.x
mul r3.xyz, r3, r5.x

; diffuse lighting
dp3 r5.x, r3, c5                ; N.L
max r5.x, r5.x, c4.y            ; clamp at 0
mul oD0.xyz, r5.x, c6
mov oD0.w, c6.w

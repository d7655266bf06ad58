; npatch.vsh - lighting an N-patched mesh: the PN triangles' interpolated normal (quadratic
; normal order) is not unit length, so it is renormalised (rsq); diffuse plus a Blinn-Phong
; specular through `lit` with a constant half vector (infinite viewer).
;
; Inputs:    v0  position   v3  normal (both evaluated by the tessellator)
; Constants: c0..c3  world * view * projection, transposed
;            c4  L: unit direction towards the light (object space)
;            c5  H: unit half vector of L and the view direction
;            c6  diffuse colour   c7  specular colour   c8  ambient
;            c9  (0, 0, 0, specular power)
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oD1 = specular
vs.1.1
dp3 r0.w, v3, v3                ; |n|^2
dp3 r1.x, v3, c4                ; N.L * |n|
dp3 r1.y, v3, c5                ; N.H * |n|
mov r1.w, c9.w
rsq r0.w, r0.w                  ; 1/|n|
m4x4 oPos, v0, c0               ; independent: pairs with the rsq
mul r1.xy, r1, r0.w             ; N.L, N.H
lit r2, r1
mul r3, r2.y, c6
mul oD1, r2.z, c7
add oD0, r3, c8

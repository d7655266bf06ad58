; specular_lit.vsh - a directional light with Blinn-Phong specular through `lit`, local viewer.
;
; Inputs:    v0  position   v3  normal (unit)   v7  texture coordinate
; Constants: c0..c3  world * view * projection, transposed
;            c4  L: unit direction towards the light (object space)
;            c5  eye position (object space, w = 1)
;            c6  diffuse colour (material * light)
;            c7  specular colour (material * light)
;            c8  ambient
;            c9  (0, 0, 0, specular power)
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oD1 = specular * (N.H)^power, oT0
vs.1.1
sub r0, c5, v0              ; V = eye - P, unnormalised
dp3 r0.w, r0, r0            ; |V|^2
dp3 r1.x, v3, c4            ; N.L
mov r1.w, c9.w              ; specular power for lit
rsq r0.w, r0.w              ; 1/|V|
m4x4 oPos, v0, c0           ; independent: pairs with the rsq
mad r2.xyz, r0, r0.w, c4    ; H' = V/|V| + L
dp3 r2.w, r2, r2            ; |H'|^2
dp3 r1.y, v3, r2            ; N.H' (normalised below)
rsq r2.w, r2.w              ; 1/|H'|
mov oT0.xy, v7              ; independent: pairs with the rsq
mul r1.y, r1.y, r2.w        ; N.H
lit r3, r1                  ; (1, max(N.L, 0), (N.H)^power if N.L > 0, 1)
mul r4, r3.y, c6            ; diffuse
mul oD1, r3.z, c7           ; specular
add oD0, r4, c8             ; + ambient

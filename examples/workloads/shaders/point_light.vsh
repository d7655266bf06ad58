; point_light.vsh - one point light with distance attenuation 1 / (k0 + k1 d + k2 d^2),
; the D3D8 fixed-function model written as a vertex shader.
;
; Inputs:    v0  position (object space)   v3  normal (unit)   v7  texture coordinate
; Constants: c0..c3  world * view * projection, transposed
;            c4  light position (object space, w = 1)
;            c5  light colour * material diffuse
;            c6  ambient
;            c7  attenuation (k0, k1, k2, 0)
;            c8  (0, 1, 0, 0)
; Outputs:   oPos, oD0 = ambient + colour * max(N.L, 0) * attenuation, oT0
;
; The scalar ops (rsq for 1/d, rcp for the attenuation) are followed by vector work that does
; not need them (the transform, the texture coordinate), so a co-issuing ALU can pair them.
vs.1.1
sub r0, c4, v0              ; L = light - P, unnormalised
dp3 r0.w, r0, r0            ; d^2
dp3 r1.x, v3, r0            ; N.L * d (normalised below, by 1/d)
rsq r1.w, r0.w              ; 1/d
m4x4 oPos, v0, c0           ; independent of the light: pairs with the rsq
dst r2, r0.wwww, r1.wwww    ; (1, d, d^2, 1/d)
mul r1.x, r1.x, r1.w        ; N.L
dp3 r2.w, r2, c7            ; k0 + k1 d + k2 d^2
max r1.x, r1.x, c8.x        ; max(N.L, 0)
rcp r2.w, r2.w              ; attenuation
mov oT0.xy, v7              ; independent: pairs with the rcp
mul r1.x, r1.x, r2.w        ; N.L * attenuation
mul r3, r1.x, c5
add oD0, r3, c6

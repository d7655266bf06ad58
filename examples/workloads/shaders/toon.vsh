; toon.vsh - cartoon shading: N.L becomes the texture coordinate of a 1D shading ramp (a few
; flat bands), N.V that of an outline ramp (dark where the surface turns away from the eye).
;
; Inputs:    v0  position   v3  normal (unit)
; Constants: c0..c3  world * view * projection, transposed
;            c4  L: unit direction towards the light (object space)
;            c5  eye position (object space, w = 1)
;            c6  material colour (the ramp texture modulates it)
;            c7  (0, 1, 0, 0)
; Outputs:   oPos, oD0 = material, oT0.x = N.L (ramp), oT1.x = N.V (outline)
vs.1.1
sub r0, c5, v0                  ; V = eye - P, unnormalised
dp3 r0.w, r0, r0                ; |V|^2
dp3 r1.x, v3, r0                ; N.V * |V| (normalised below)
dp3 r2.x, v3, c4                ; N.L
rsq r0.w, r0.w                  ; 1/|V|
m4x4 oPos, v0, c0               ; independent: pairs with the rsq
max oT0.x, r2.x, c7.x           ; the shading ramp's coordinate
mov oT0.y, c7.x
mul oT1.x, r1.x, r0.w           ; N.V: the outline ramp's coordinate
mov oT1.y, c7.x
mov oD0, c6

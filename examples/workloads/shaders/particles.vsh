; particles.vsh - point sprites: D3D8's point-size attenuation in a shader,
; size = S * sqrt(1 / (A + B d + C d^2)) with d the distance to the eye, into oPts.
;
; Inputs:    v0  position   v5  colour (D3DCOLOR)
; Constants: c0..c3  world * view * projection, transposed
;            c4  eye position (object space, w = 1)
;            c5  (A, B, C, S): the attenuation terms and the size in pixels at d = 0 (A = 1)
; Outputs:   oPos, oD0 = colour, oPts
vs.1.1
sub r0, v0, c4                  ; P - eye
dp3 r0.w, r0, r0                ; d^2
m4x4 oPos, v0, c0
rsq r0.y, r0.w                  ; 1/d
mov oD0, v5                     ; independent: pairs with the rsq
dst r1, r0.wwww, r0.yyyy        ; (1, d, d^2, 1/d)
dp3 r1.w, r1, c5                ; A + B d + C d^2
rsq r1.w, r1.w                  ; 1 / sqrt(A + B d + C d^2)
mul oPts.x, r1.w, c5.w          ; * S

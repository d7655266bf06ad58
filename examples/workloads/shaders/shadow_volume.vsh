; shadow_volume.vsh - shadow-volume extrusion for a point light: vertices whose normal faces
; away from the light (N.D > 0, D = P - light) are pushed a fixed distance along D; the rest
; stay put (the occluder's lit cap). Only oPos: the volume is drawn into the stencil buffer.
;
; Inputs:    v0  position   v3  normal (unit)
; Constants: c0..c3  world * view * projection, transposed
;            c4  light position (object space, w = 1)
;            c5  (0, extrusion distance, 1, 0)
; Outputs:   oPos
vs.1.1
sub r0, v0, c4                  ; D = P - light
dp3 r0.w, r0, r0                ; |D|^2
dp3 r1.x, v3, r0                ; N.D
slt r1.x, c5.x, r1.x            ; 1 if N.D > 0: faces away from the light
mul r1.x, r1.x, c5.y            ; extrusion distance, or 0
rsq r0.w, r0.w                  ; 1/|D|
mul r1.x, r1.x, r0.w            ; ... / |D|
mad r2.xyz, r0, r1.x, v0        ; P + D * distance / |D|
mov r2.w, c5.z
m4x4 oPos, r2, c0

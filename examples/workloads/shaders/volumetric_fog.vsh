; volumetric_fog.vsh - layered (height) fog: the fog is a layer below height h; the vertex's
; fog factor is 2^(-density * radial distance * depth below h), through expp (the partial-
; precision exp D3D8 shaders used for fog), into oFog. One directional light.
;
; Inputs:    v0  position   v3  normal (unit)   v7  texcoord
; Constants: c0..c3  world * view * projection, transposed
;            c4  L: unit direction towards the light (object space)
;            c5  eye position (object space, w = 1)
;            c6  (h, 0, -density, 0): the layer's top, zero, minus the density per unit
;            c7  diffuse colour (material * light)   c8  ambient
; Outputs:   oPos, oD0, oT0, oFog = 2^(-density * d * max(h - y, 0))
vs.1.1
sub r0, v0, c5                  ; P - eye
dp3 r0.w, r0, r0                ; d^2
sub r1.x, c6.x, v0.y            ; h - y
dp3 r2.x, v3, c4                ; N.L
rsq r1.w, r0.w                  ; 1/d
m4x4 oPos, v0, c0               ; independent: pairs with the rsq
max r1.x, r1.x, c6.y            ; depth in the layer
max r2.x, r2.x, c6.y            ; max(N.L, 0)
mul r1.y, r0.w, r1.w            ; d = d^2 / d
mul r1.x, r1.x, r1.y            ; depth * d
mul r1.x, r1.x, c6.z            ; * -density
expp r3, r1.x                   ; r3.z = 2^x (partial precision)
mul r2, r2.x, c7                ; independent: pairs with the expp
mov oT0.xy, v7
mov oFog.x, r3.z
add oD0, r2, c8

; cubemap_reflect.vsh - environment mapping: the eye vector reflected about the normal,
; R = 2 (N.E) N - E, as the cube map's texture coordinate (object space = world space here),
; and a Fresnel-like alpha (1 - N.E) to blend the reflection over the diffuse colour.
;
; Inputs:    v0  position   v3  normal (unit)
; Constants: c0..c3  world * view * projection, transposed
;            c4  L: unit direction towards the light (object space)
;            c5  eye position (object space, w = 1)
;            c6  diffuse colour (material * light)   c7  ambient
;            c8  (2, 1, 0, 0)
; Outputs:   oPos, oT0.xyz = R, oD0.rgb = ambient + diffuse * max(N.L, 0), oD0.a = 1 - N.E
;
; Written in dependency order: the rsq's partner (the transform's first dp4) is two slots after
; it, behind the dependent mul, so only a look-ahead window (not adjacent pairs) pairs them.
vs.1.1
sub r0, c5, v0                  ; E = eye - P, unnormalised
dp3 r0.w, r0, r0                ; |E|^2
dp3 r1.x, v3, c4                ; N.L
rsq r0.w, r0.w                  ; 1/|E|
mul r0.xyz, r0, r0.w            ; E normalised
m4x4 oPos, v0, c0               ; independent, two slots after the rsq
max r1.x, r1.x, c8.z
dp3 r1.w, v3, r0                ; N.E
mul r2, r1.x, c6                ; diffuse
mul r1.y, r1.w, c8.x            ; 2 N.E
add r3.w, c8.y, -r1.w           ; 1 - N.E
mad oT0.xyz, v3, r1.y, -r0      ; R = 2 (N.E) N - E
add oD0.xyz, r2, c7
mov oD0.w, r3.w

; transform_light.vsh - transform plus one directional light (diffuse + specular) with lit.
;
; Inputs:    v0      position (x, y, z, 1)
;            v3      normal (object space, unit length)
; Constants: c0..c3  world * view * projection, transposed
;            c4      L: unit direction from the surface towards the light (object space)
;            c5      H: unit half vector between L and the view direction (object space)
;            c6      (unused, unused, unused, specular power)
;            c7      diffuse colour  = material diffuse  * light colour (rgba)
;            c8      specular colour = material specular * light colour (rgba)
;            c9      ambient colour (rgba; its alpha becomes oD0's alpha base)
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oD1 = specular * (N.H)^power
vs.1.1
m4x4 oPos, v0, c0
dp3 r0.x, v3, c4          ; N.L
dp3 r0.y, v3, c5          ; N.H
mov r0.w, c6.w            ; specular power
lit r1, r0                ; r1 = (1, max(N.L, 0), N.L > 0 ? max(N.H, 0)^power : 0, 1)
mov r2, c9                ; ambient (one constant per instruction: c9 and c7 cannot share one)
mad oD0, r1.y, c7, r2     ; ambient + diffuse
mul oD1, r1.z, c8         ; specular

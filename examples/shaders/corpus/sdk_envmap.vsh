; DX8 SDK style: cube environment map, reflection vector in eye space.
; c0-c3 world-view-projection, c4-c7 world-view (m4x3 and m3x3 use the rows), c12 (2, 0, 0, 0)
vs.1.1
m4x4 oPos, v0, c0
m4x3 r0, v0, c4            ; eye-space position (.xyz)
m3x3 r1, v3, c4            ; eye-space normal (.xyz)
dp3 r2.x, r0, r0
rsq r2.x, r2.x
mul r0.xyz, r0, r2.x       ; eye vector E
dp3 r3.x, r1, r0           ; N.E
mul r3.x, r3.x, c12.x      ; 2 N.E
mad oT0.xyz, r1, -r3.x, r0 ; R = E - 2 (N.E) N
mov oD0, c13

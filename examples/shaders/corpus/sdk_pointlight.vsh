; DX8 SDK style: a point light with distance attenuation through dst and lit.
; c15 light position (object space), c16 attenuation (1, d, d^2 factors), c9 colour
vs.1.1
m4x4 oPos, v0, c0
sub r0, c15, v0            ; L unnormalised (r0.w = c15.w - v0.w)
dp3 r1.x, r0, r0           ; |L|^2
rsq r1.y, r1.x             ; 1 / |L|
mul r0.xyz, r0, r1.y       ; L normalised
dst r2, r1.xxxx, r1.yyyy   ; (1, d, d^2, 1 / d)
dp3 r3.x, r2, c16          ; attenuation denominator
rcp r3.x, r3.x
dp3 r4.x, v3, r0           ; N.L
max r4.x, r4.x, c16.w
mul r4.x, r4.x, r3.x
mul oD0, r4.x, c9
mov oT0.xy, v7

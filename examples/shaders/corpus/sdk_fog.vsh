; DX8 SDK style: linear vertex fog from the eye-space depth. c14 = (end, 1 / (end - start), 0, 0)
vs.1.1
m4x4 r0, v0, c0
mov oPos, r0
m4x3 r1, v0, c4            ; eye-space position; r1.w is never written
sub r2.x, c14.x, r1.z
mul oFog.x, r2.x, c14.y
mov oD0, c13
mov oT0.xy, v7
mov oT1, r1                ; reads r1.w: the start value 0

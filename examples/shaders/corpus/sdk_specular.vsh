; DX8 SDK style: diffuse and specular with lit (half vector in c11).
vs.1.1
def c12, 0, 0, 0, 16       ; specular power in .w
m4x4 oPos, v0, c0
m3x3 r0, v3, c4
dp3 r1.x, r0, -c8          ; N.L
dp3 r1.y, r0, c11          ; N.H
mov r1.w, c12.w            ; power
lit r2, r1                 ; reads r1.x, .y, .w
mul oD0, r2.y, c9
mul oD1, r2.z, c10
mov oT0.xy, v7

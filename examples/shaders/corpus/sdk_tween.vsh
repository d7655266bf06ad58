; DX8 SDK style: tweening between two positions (v0 and v3) by the factor in c24.x.
vs.1.1
def c24, 0.25, 0, 0, 0
mov r2, v0                 ; one input register per instruction
sub r0, v3, r2
mad r1, r0, c24.x, r2      ; v0 + t (v3 - v0)
m4x4 oPos, r1, c0
mov oD0, c13
mov oT0.xy, v7

; Transforms the position by the matrix in c0..c3 (the declaration loads the identity) and
; scales it by c4 (a def: applied after the declaration's CONST tokens).
vs.1.1
def c4, 2, 2, 1, 1
m4x4 r0, v0, c0
mul oPos, r0, c4
mov oD0, v5

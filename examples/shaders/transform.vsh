; transform.vsh - position only: the smallest useful vertex shader.
;
; Inputs:    v0      position (x, y, z, 1), e.g. D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3)
; Constants: c0..c3  world * view * projection, transposed (c0 = first column of the matrix),
;                    so that oPos.x = dp4(v0, c0) ... oPos.w = dp4(v0, c3)
; Outputs:   oPos
vs.1.1
m4x4 oPos, v0, c0

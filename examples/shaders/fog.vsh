; fog.vsh - transform plus linear vertex fog from the eye-space depth.
;
; Inputs:    v0      position (x, y, z, 1)
;            v5      diffuse colour (D3DVSDE_DIFFUSE, D3DVSDT_D3DCOLOR)
; Constants: c0..c3  world * view * projection, transposed
;            c4..c7  world * view, transposed (c6 gives the eye-space z)
;            c8      (fog end, 1 / (fog end - fog start), unused, unused)
; Outputs:   oPos, oD0 = v5, oFog = (end - z_eye) / (end - start) (the rasteriser clamps it to [0, 1])
vs.1.1
m4x4 oPos, v0, c0
dp4 r0.z, v0, c6          ; eye-space depth
sub r0.x, c8.x, r0.z      ; end - z
mul oFog.x, r0.x, c8.y    ; (end - z) / (end - start)
mov oD0, v5

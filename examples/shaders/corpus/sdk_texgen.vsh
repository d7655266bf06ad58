; DX8 docs style: texture coordinates generated from the position by m3x2 (no mask: .xy).
vs.1.1
m4x4 oPos, v0, c0
m3x2 oT0, v0, c20          ; planar projection: writes oT0.xy
m3x2 r0, v3, c22           ; the normal's projection: writes r0.xy only
mov oT1, r0                ; reads r0.zw: never written
mov oD0, c13

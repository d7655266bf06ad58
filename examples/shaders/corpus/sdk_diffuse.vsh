; DX8 SDK style: one directional light.
; c0-c3 world-view-projection, c4-c6 world, c8 light direction, c9 diffuse, c10 ambient
vs.1.1
m4x4 oPos, v0, c0
m3x3 r0, v3, c4            ; world normal (.xyz)
dp3 r1.x, r0, -c8          ; N.L
max r1.x, r1.x, c10.w      ; clamp at the ambient's w (0)
mul r2, r1.x, c9
add oD0, r2, c10
mov oT0.xy, v7

; DX8.1 SDK style: bump mapping setup (after the SDK's bumpshader.vsh).
; v0 position, v3 normal, v7 texture coordinate
; c0-c3 world-view-projection, c4-c6 world (3x3), c8 light direction (object space)
vs.1.1
m4x4 oPos, v0, c0          ; transform position
m3x3 r7, v3, c4            ; normal to world space: no mask, writes .xyz
dp3 r0.x, r7, r7
rsq r0.x, r0.x
mul r7.xyz, r7, r0.x       ; normalise
mov oT0.xy, v7             ; base map
mov oT1, r7                ; the normal as a texture coordinate: reads r7.w, never written (0)
dp3 oD0, r7, c8            ; N.L into the diffuse colour

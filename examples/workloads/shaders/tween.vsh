; tween.vsh - keyframe tweening: two key poses in two streams, blended by a constant weight
; (the shader form of D3D8's D3DVBF_TWEENING), then one directional light.
;
; Inputs:    v0  position of key 0   v3  normal of key 0   (stream 0)
;            v15 position of key 1   v4  normal of key 1   (stream 1)   v7  texcoord (stream 0)
; Constants: c0..c3  world * view * projection, transposed
;            c4  (t, 1 - t, 0, 1): t = tween weight, 0 = key 0, 1 = key 1
;            c5  L: unit direction towards the light (object space)
;            c6  diffuse colour (material * light)   c7  ambient
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oT0
;
; Written in dependency order: the rsq's only independent neighbour (the texture coordinate)
; is three slots after it, so only a look-ahead window of 4 or more pairs them.
vs.1.1
mul r0, v15, c4.x               ; t key 1 (one input register per instruction)
mul r1, v4, c4.x
mad r0, v0, c4.y, r0            ; p = (1 - t) key 0 + t key 1
mad r1, v3, c4.y, r1            ; n, the same
dp3 r1.w, r1, r1                ; |n|^2
m4x4 oPos, r0, c0
rsq r1.w, r1.w                  ; 1/|n|
mul r1.xyz, r1, r1.w
dp3 r2.x, r1, c5                ; N.L
mov oT0.xy, v7                  ; independent, three slots after the rsq
max r2.x, r2.x, c4.z
mul r2, r2.x, c6
add oD0, r2, c7

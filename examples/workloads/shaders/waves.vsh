; waves.vsh - a water surface: the sum of two sine waves over a flat grid (z = 0). Each wave's
; phase is k.p + t in cycles; frc reduces it to [0, 1), then to [-pi, pi), and sin / cos come
; from their Taylor series (to x^9 and x^8), both waves at once (sin in .xy, cos in .zw).
; The normal (hx, hy, -1) from the slopes, renormalised with rsq; one directional light.
;
; Inputs:    v0  position (x, y, 0, 1)   v7  texcoord
; Constants: c0..c3  world * view * projection, transposed
;            c4, c5  wave 0, 1: (kx, ky, 0, t + 0.5), k in cycles per unit, t the time in cycles
;            c6  (2 pi, -pi, 0, -1)
;            c7..c11  Taylor coefficients, Horner order: (sin, sin, cos, cos) terms
;                     c7 (1/9!, 1/9!, 1/8!, 1/8!)  c8 (-1/7!, .., -1/6!, ..)  c9 (1/5!, .., 1/4!, ..)
;                     c10 (-1/3!, .., -1/2!, ..)   c11 (1, 1, 1, 1)
;            c12 (A0, A1, 0, 0) amplitudes
;            c13 (0, 0, 2 pi A0 kx0, 2 pi A1 kx1)   c14 (0, 0, 2 pi A0 ky0, 2 pi A1 ky1): slopes
;            c15 L: unit direction towards the light   c16 diffuse colour   c17 ambient
; Outputs:   oPos, oD0 = ambient + diffuse * max(N.L, 0), oT0
vs.1.1
dp4 r0.x, v0, c4                ; phase of wave 0 (cycles, + 0.5)
dp4 r0.y, v0, c5                ; phase of wave 1
frc r0.xy, r0                   ; [0, 1)
mad r0.xy, r0, c6.x, c6.y       ; x = 2 pi f - pi in [-pi, pi)
mul r1, r0.xyxy, r0.xyxy        ; x^2 for (sin 0, sin 1, cos 0, cos 1)
mul r2, r1, c7                  ; Horner
add r2, r2, c8
mad r2, r2, r1, c9
mad r2, r2, r1, c10
mad r2, r2, r1, c11             ; .xy = sin(x) / x, .zw = cos(x)
mul r2.xy, r2, r0               ; .xy = sin(x)
dp3 r3.z, r2, c12               ; height = A0 sin 0 + A1 sin 1
dp4 r4.x, r2, c13               ; dh/dx (the cos terms)
dp4 r4.y, r2, c14               ; dh/dy
mov r4.z, c6.w                  ; normal (hx, hy, -1)
mov r3.xyw, v0                  ; x, y, 1
dp3 r4.w, r4, r4                ; |n|^2
m4x4 oPos, r3, c0
rsq r4.w, r4.w                  ; 1/|n|
mov oT0.xy, v7                  ; independent: pairs with the rsq
mul r4.xyz, r4, r4.w
dp3 r5.x, r4, c15               ; N.L
max r5.x, r5.x, c6.z
mul r5, r5.x, c16
add oD0, r5, c17

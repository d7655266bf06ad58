; all_opcodes.vsh - every vs.1.1 instruction (and def) at least once, for assembler, decoder
; and ALU coverage. The arithmetic is arbitrary; every value read has been written.
;
; Inputs:    v0      position (x, y, z, 1)
;            v1      any four floats
;            v3      normal
; Constants: c0..c3  world * view * projection, transposed
;            c4, c5  set by the defs below (the D3DVSD_CONST tokens `vpsim asm --const-tokens` writes)
;            c8..c11 any 4x4 matrix, transposed (read by the m-instructions)
;            c12..c15 any values, read through c[a0.x + 12] with a0.x = 1
; Outputs:   oPos, oD0, oD1, oT0..oT3, oFog, oPts
vs.1.1
def c4, 0.5, 1.5, -2.25, 8
def c5, 0, 1, 2, 3

nop
m4x4 oPos, v0, c0               ; 4 x dp4
mov r0, v1
add r1, r0, c4
sub r2, r1, v0
mul r3, r2, c4.x
mad r4, r3, v1.y, r2
dp3 r5.x, r4, c4
dp4 r5.y, r4, v0
rcp r5.z, r5.x                  ; scalar ops: single-component mask, replicate swizzle
rsq r5.w, r5.y
min r6, r4, c5
max r7, r6, -r5
slt r8, r7, c5.y
sge r9, r7, v1
exp r10.x, r5.w                 ; full precision 2^x
log r10.y, r5.z                 ; full precision log2|x|
expp r11.x, r5.x                ; partial precision (DX8 form writes four components)
logp r11.y, r5.y
lit r1, r5                      ; reads r5.x, r5.y, r5.w
dst r2, r6, r7                  ; (1, r6.y * r7.y, r6.z, r7.w)
frc r3.xy, r4                   ; frc writes .x, .y or .xy
m4x3 r6.xyz, v0, c8             ; 3 x dp4
m3x4 r7, v3, c8                 ; 4 x dp3
m3x3 r8.xyz, v3, c8             ; 3 x dp3
m3x2 r9.xy, v3, c8              ; 2 x dp3
mov a0.x, c5.y                  ; a0.x = floor(1) = 1
mov oT0, c[a0.x + 12]           ; c13
mov oD0, r1
mov oD1, r2.wzyx
mov oT1, -r6.xyz
add oT2.xy, r8, r9
mul oT3, r10.xyxy, r11.yx
mov oFog.x, r3.x
mov oPts.x, r3.y

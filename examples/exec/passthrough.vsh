; Copies the fetched inputs to the outputs: shows exactly what vertex fetch produced.
vs.1.1
mov oPos, v0    ; FLOAT3 position: w = 1
mov oD0, v5     ; D3DCOLOR: (R, G, B, A) / 255 (oD0 is saturated, which changes nothing here)
mov oT0, v7     ; SHORT2: (s0, s1, 0, 1), not normalised

/* The recorder's reference pictures (`vpsim capture run --shots`, docs/capture.md): the back
 * buffer of chosen frames, read before their Present, written as PNG files beside the capture. */
#pragma once

#include <windows.h>
#include <d3d8.h>
#include <stdint.h>

/* Reads the frames wanted (VPSIM_CAPTURE_SHOTS: "0,2,7", ascending) and where the pictures go
 * (VPSIM_CAPTURE_SHOT_PREFIX: a Windows path to which "<frame>.png" is appended). */
void vpsim_shots_init(void);

/* When `frame` is wanted: copies the back buffer of `d` (CopyRects into a system-memory surface,
 * then LockRect) and writes PREFIX<frame>.png, whole (a .part file renamed), or, when it cannot,
 * PREFIX<frame>.error with the reason. To be called before the real Present (after it the back
 * buffer's contents are undefined). */
void vpsim_shots_take(IDirect3DDevice8* d, uint32_t frame);

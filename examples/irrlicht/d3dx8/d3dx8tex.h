// d3dx8tex.h for Irrlicht 1.8.5's CD3D8Texture.cpp: it includes the header, but with
// _IRR_USE_D3DXFilterTexture_ defined (the engine's #ifndef around its one call is inverted)
// it calls nothing from it, so the d3dx8 core declarations are all it needs.
#ifndef VPSIM_D3DX8TEX_H
#define VPSIM_D3DX8TEX_H
#include "d3dx8core.h"
#endif

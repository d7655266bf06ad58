// A declaration as it appears in D3D8 source code: two streams (position + normal, then
// colour + texture coordinates) and four constants loaded when the shader is set.
DWORD dwDecl[] =
{
    D3DVSD_STREAM(0),
    D3DVSD_REG(D3DVSDE_POSITION, D3DVSDT_FLOAT3),
    D3DVSD_REG(D3DVSDE_NORMAL,   D3DVSDT_FLOAT3),
    D3DVSD_STREAM(1),
    D3DVSD_REG(D3DVSDE_DIFFUSE,  D3DVSDT_D3DCOLOR),
    D3DVSD_REG(D3DVSDE_TEXCOORD0, D3DVSDT_SHORT2),
    D3DVSD_CONST(8, 1), FtoDW(0.0f), FtoDW(0.5f), FtoDW(1.0f), FtoDW(2.0f),   // c8: useful numbers
    D3DVSD_CONST(9, 1), 0x3F800000, 0x00000000, 0x00000000, 0xFFFFFFFF,       // c9: raw bits
    D3DVSD_END(),
};

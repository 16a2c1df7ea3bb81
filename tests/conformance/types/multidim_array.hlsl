// conformance: a two-dimensional local array
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 8 59 110 41 99 88 59 48
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint g[3][4];
    for (uint r = 0; r < 3; r++) for (uint c = 0; c < 4; c++) g[r][c] = r * 4 + c;
    uint i = a[id.x];
    o[id.x] = g[i % 3][i % 4] * 10 + g[2][i % 4];
}

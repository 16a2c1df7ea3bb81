// conformance: reading past a buffer's end gives 0 (D3D)
// buffer: a uint32 = 7 8 9 10
// buffer: o uint32[4]
// expect: o = 10 11 1 1
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = a[id.x + 2] + 1;
}

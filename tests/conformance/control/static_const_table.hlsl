// conformance: a static const array indexed at run time
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 14 22 26 34 14 34 34 14
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
static const uint table[5] = { 7, 11, 13, 17, 19 };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = table[a[id.x] % 5] * 2;
}

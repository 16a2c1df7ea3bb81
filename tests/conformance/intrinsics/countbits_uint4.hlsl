// conformance: countbits and reversebits on uint4
// buffer: a uint32 = 1 3 4026531840 4294967295
// buffer: o uint32[4]
// expect: o = 9 14 4 47
StructuredBuffer<uint4> a;
RWStructuredBuffer<uint4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = countbits(a[id.x]) + (reversebits(a[id.x]) >> 28);
}

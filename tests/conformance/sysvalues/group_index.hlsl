// conformance: SV_GroupIndex flattens SV_GroupThreadID: z * X * Y + y * X + x
// groups: 1,1,1
// buffer: o uint32[24]
// expect: o = 0 1001 2002 3010 4011 5012 6020 7021 8022 9030 10031 11032 12100 13101 14102 15110 16111 17112 18120 19121 20122 21130 22131 23132
RWStructuredBuffer<uint> o;

[numthreads(3, 4, 2)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint flat = ((gid.z * 1 + gid.y) * 1 + gid.x) * 24 + gi;
    o[flat] = gi * 1000 + tid.z * 100 + tid.y * 10 + tid.x;
}

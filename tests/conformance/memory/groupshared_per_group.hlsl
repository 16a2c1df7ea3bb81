// conformance: each group has its own groupshared memory
// groups: 3,1,1
// buffer: o uint32[12]
// expect: o = 1 2 3 4 11 12 13 14 21 22 23 24
RWStructuredBuffer<uint> o;
groupshared uint shared0;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (gi == 0) shared0 = gid.x * 10 + 1;
    GroupMemoryBarrierWithGroupSync();
    o[id.x] = shared0 + gi;
}

// conformance: InterlockedAdd on groupshared memory, then a barrier and a read
// groups: 2,1,1
// buffer: o uint32[2]
// expect: o = 2016 2016
RWStructuredBuffer<uint> o;
groupshared uint total;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (gi == 0) total = 0;
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(total, gi);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) o[gid.x] = total;
}

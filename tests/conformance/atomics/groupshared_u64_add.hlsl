// conformance: InterlockedAdd on a groupshared uint64_t (SM 6.6)
// buffer: o64 uint64[1]
// expect: o64 = 137438953472
RWStructuredBuffer<uint64_t> o64;
groupshared uint64_t big;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (gi == 0) big = 0;
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(big, 0x80000000ull);
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) o64[0] = big;
}

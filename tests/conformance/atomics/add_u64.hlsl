// conformance: InterlockedAdd on a uint64_t RWStructuredBuffer carries into the high word (SM 6.6)
// buffer: o64 uint64 = 0
// expect: o64 = 137438953472
RWStructuredBuffer<uint64_t> o64;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedAdd(o64[0], 0x80000000ull);
}

// conformance: a group barrier in divergent control flow is rejected
// error: divergent
RWStructuredBuffer<uint> o;
groupshared uint s[64];
[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    if (id.x < 5) {
        GroupMemoryBarrierWithGroupSync();
    }
    o[id.x] = 1;
}

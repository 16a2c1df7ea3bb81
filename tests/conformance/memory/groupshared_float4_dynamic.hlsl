// conformance: a groupshared float4 array written by component and read whole
// buffer: of float32[32]
// expect: of = 3 3 6 9 4 4 8 12 5 5 10 15 6 6 12 18 7 7 14 21 0 0 0 0 1 1 2 3 2 2 4 6
RWStructuredBuffer<float4> of;
groupshared float4 data[8];

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    data[gi].x = gi;
    data[gi].yzw = float3(1, 2, 3) * gi;
    GroupMemoryBarrierWithGroupSync();
    of[gi] = data[(gi + 3) % 8];
}

// conformance: groupshared histogram with InterlockedAdd at divergent indexes
// buffer: a uint32 = 0 1 4 9 3 12 10 10 12 3 9 4 1 0 1 4 9 3 12 10 10 12 3 9 4 1 0 1 4 9 3 12 10 10 12 3 9 4 1 0 1 4 9 3 12 10 10 12 3 9 4 1 0 1 4 9 3 12 10 10 12 3 9 4
// buffer: o uint32[8]
// expect: o = 5 19 10 10 20 0 0 0
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
groupshared uint bins[8];

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (gi < 8) bins[gi] = 0;
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(bins[a[gi] % 8], 1);
    GroupMemoryBarrierWithGroupSync();
    if (gi < 8) o[gi] = bins[gi];
}

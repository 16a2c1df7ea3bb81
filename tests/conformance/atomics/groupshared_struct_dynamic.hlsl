// conformance: groupshared struct array: atomics on a member at run-time indexes
// buffer: o uint32[8]
// expect: o = 8 112 8 120 8 128 8 136
RWStructuredBuffer<uint> o;
struct Cell { uint hits; uint sum; };
groupshared Cell cells[4];

[numthreads(32, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (gi < 4) { cells[gi].hits = 0; cells[gi].sum = 0; }
    GroupMemoryBarrierWithGroupSync();
    InterlockedAdd(cells[gi % 4].hits, 1);
    InterlockedAdd(cells[gi % 4].sum, gi);
    GroupMemoryBarrierWithGroupSync();
    if (gi < 4) { o[gi * 2] = cells[gi].hits; o[gi * 2 + 1] = cells[gi].sum; }
}

// conformance: groupshared InterlockedAdd returns distinct original values (a compaction)
// buffer: a uint32 = 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1 3 0 2 4 1
// buffer: o uint32[33]
// expect: o = 25 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 0 0 0 0 0 0 0
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
groupshared uint count;
groupshared uint marks[64];

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (gi == 0) count = 0;
    GroupMemoryBarrierWithGroupSync();
    if (a[gi] & 1) {
        uint slot;
        InterlockedAdd(count, 1, slot);
        marks[slot] = 1;
    }
    GroupMemoryBarrierWithGroupSync();
    if (gi == 0) o[0] = count;
    if (gi < 32) o[1 + gi] = marks[gi];
}

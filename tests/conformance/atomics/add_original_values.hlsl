// conformance: InterlockedAdd's original-value out parameter: each thread gets a distinct slot
// buffer: counter uint32[1]
// buffer: slots uint32[64]
// expect: counter = 64
// expect: slots = 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1 1
RWStructuredBuffer<uint> counter;
RWStructuredBuffer<uint> slots;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint old;
    InterlockedAdd(counter[0], 1, old);
    slots[old] = 1;
}

// conformance: InterlockedCompareExchange stores only when the compare value matches, and returns the old value
// buffer: o uint32 = 5 6 5 0 0 0 0 0
// expect: o = 100 6 102 0 5 6 5 0
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint old;
    InterlockedCompareExchange(o[id.x], 5, 100 + id.x, old);
    o[4 + id.x] = old;
}

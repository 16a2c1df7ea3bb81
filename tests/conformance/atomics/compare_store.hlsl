// conformance: InterlockedCompareStore stores only when the compare value matches
// buffer: o uint32 = 3 4 3 0
// expect: o = 9 4 9 0
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedCompareStore(o[id.x], 3, 9);
}

// conformance: InterlockedAdd of negative ints on RWStructuredBuffer<int>
// buffer: o int32 = 0 0
// expect: o = -2016 0
RWStructuredBuffer<int> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedAdd(o[0], -(int)id.x);
    InterlockedAdd(o[1], (id.x & 1) ? 1 : -1);
}

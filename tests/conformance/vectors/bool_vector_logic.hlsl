// conformance: !, and(), or() on bool vectors
// buffer: a int32 = 1 1 -1 -1 2 3
// buffer: o uint32[6]
// expect: o = 1 1 1 0 0 1
StructuredBuffer<int3> a;
RWStructuredBuffer<uint3> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    bool3 p = a[id.x] > 0;
    bool3 q = !p;
    o[id.x] = (uint3)or(and(p, bool3(true, false, true)), q.zzz);
}

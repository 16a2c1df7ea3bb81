// conformance: functions calling functions: each is inlined with its own locals
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 6 11 16 21 31 46 71 506
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint inner(uint v) { uint t = v + 1; return t * 2; }
uint middle(uint v) { uint t = inner(v) + 1; return t * 2; }
uint outer(uint v) { return middle(v) + v; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = outer(a[id.x]);
}

// conformance: inout parameters are copied in and copied back
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 3 7 11 15 23 35 55 403
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
void twice(inout uint v) { v = v * 2 + 1; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint v = a[id.x];
    twice(v);
    twice(v);
    o[id.x] = v;
}

// conformance: a local struct: member writes and a copy that does not alias
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 1000 1003 1006 1009 1015 1024 1039 1300
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Pair { uint a; uint b; };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Pair p;
    p.a = a[id.x];
    p.b = p.a * 2;
    Pair q = p;
    q.a = 1000;
    o[id.x] = p.a + p.b + q.a;
}

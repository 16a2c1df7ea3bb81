// conformance: structs passed to and returned from functions by value
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 1 102 203 304 506 809 1314 10101
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Pair { uint a; uint b; };
Pair make(uint x) { Pair p; p.a = x; p.b = x + 1; return p; }
void touch(Pair p) { p.a = 77; }

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Pair p = make(a[id.x]);
    touch(p);
    o[id.x] = p.a * 100 + p.b;
}

// conformance: brace initializers fill a struct and an array member by member
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[8]
// expect: o = 741 1741 2741 3741 5741 8741 13741 100741
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
struct Pair { uint a; uint b; };

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Pair p = { a[id.x], 7 };
    uint2 v[2] = { uint2(1, 2), uint2(3, 4) };
    o[id.x] = p.a * 1000 + p.b * 100 + v[1].y * 10 + v[0].x;
}

// conformance: ConstantBuffer<T> members are read through the variable
// constant: P uint32 = 21 4 5
// buffer: o uint32[1]
// expect: o = 47
struct Params { uint a; uint2 b; };
ConstantBuffer<Params> P;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = P.a * 2 + P.b.y;
}

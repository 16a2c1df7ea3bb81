// conformance: int2x2 arithmetic and mul stay integer
// buffer: a int32 = 1 2 3 4
// buffer: o int32[4]
// expect: o = 9 12 19 26
StructuredBuffer<int4> a;
RWStructuredBuffer<int4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int2x2 x = int2x2(a[0].xy, a[0].zw);
    int2x2 p = mul(x, x);
    o[0] = int4(p[0], p[1]) + (x * 2)[0].xxyy;
}

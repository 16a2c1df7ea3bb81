// conformance: m[r][c], m._m12 (zero-based) and m._23 (one-based) name the same element
// buffer: a float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
// buffer: o float32[4]
// expect: o = 7 7 7 4
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4x4 x = float4x4(a[0], a[1], a[2], a[3]);
    o[0] = float4(x[1][2], x._m12, x._23, x._m30_m03.y);
}

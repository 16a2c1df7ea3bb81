// conformance: mul(M, v) treats v as a column vector
// buffer: a float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 1 -1 2 0.5
// buffer: o float32[4]
// expect: o = 7 17 27 37
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4x4 m = float4x4(a[0], a[1], a[2], a[3]);
    o[0] = mul(m, a[4]);
}

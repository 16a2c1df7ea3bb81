// conformance: mul of float2x3 by float3 gives float2; float3x2 constructor is row by row
// buffer: a float32 = 1 -1 2 0
// buffer: o float32[4]
// expect: o = 5 11 5 10
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float2x3 x = float2x3(1, 2, 3, 4, 5, 6);
    float3x2 y = float3x2(1, 0, 0, 1, 1, 1);
    float2x2 p = mul(x, y);
    o[0] = float4(mul(x, a[0].xyz), p[0][1], p[1][0]);
}

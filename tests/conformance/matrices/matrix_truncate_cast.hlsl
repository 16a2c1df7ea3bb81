// conformance: (float3x3) of a float4x4 keeps the upper-left 3x3
// buffer: a float32 = 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16
// buffer: o float32[8]
// expect: o = 1 2 3 11 5 6 7 9
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4x4 x = float4x4(a[0], a[1], a[2], a[3]);
    float3x3 s = (float3x3)x;
    o[0] = float4(s[0], s[2][2]);
    o[1] = float4(s[1], s[2][0]);
}

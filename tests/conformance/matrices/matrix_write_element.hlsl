// conformance: writing m[r][c] and a whole row m[r] = v
// buffer: o float32[8]
// expect: o = 0 0 5 3 7 8 9 0
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float3x3 x = (float3x3)0;
    x[0][2] = 5.0f;
    x[2] = float3(7, 8, 9);
    x._m11 = 3.0f;
    o[0] = float4(x[0], x[1].y);
    o[1] = float4(x[2], x[1].x);
}

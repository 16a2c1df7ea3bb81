// conformance: vector constructors flatten vectors and scalars
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 2 2 2 9 6 6 6 9
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float2 p = a[id.x].xy;
    o[id.x] = float4(p, float2(p.y, 9.0f)) + float4(1.0f, float3(0, 0, 0));
}

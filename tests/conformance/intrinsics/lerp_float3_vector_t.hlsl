// conformance: lerp with a per-component t
// buffer: a float32 = 2 4 6 0
// buffer: o float32[4]
// expect: o = 2 12 30 0
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = float4(lerp(a[id.x].xyz, float3(10, 20, 30), float3(0, 0.5f, 1)), 0);
}

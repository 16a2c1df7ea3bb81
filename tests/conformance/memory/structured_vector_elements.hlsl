// conformance: StructuredBuffer<float3> has 12-byte elements
// buffer: a3 float32 = 0 1 2 3 4 5 6 7 8 9 10 11
// buffer: o3 float32[9]
// expect: o3 = 5 4 6 11 10 12 17 16 18
StructuredBuffer<float3> a3;
RWStructuredBuffer<float3> o3;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o3[id.x] = a3[id.x].zxy + a3[id.x + 1];
}

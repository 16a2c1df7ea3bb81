// conformance: sqrt(abs(v)) per component (exact squares)
// buffer: a float32 = 4 -9 0.25 -0.0 16 1 -64 2.25
// buffer: o float32[8]
// expect: o = 2 3 0.5 0 4 1 8 1.5
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = sqrt(abs(a[id.x]));
}

// conformance: min / max / clamp apply per component
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 3 3.5 4.5 5.5 4.5 7.5 4.5 7.5
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = clamp(a[id.x], float4(2, 2, 2, 2), float4(3, 6, 3, 6)) + min(a[id.x], 1.5f);
}

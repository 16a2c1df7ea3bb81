// conformance: comparing vectors gives a bool vector, converted to 0/1 per component
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 0 0 0 0 11 1 0 1
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = (float4)(a[id.x] > float4(2, 2, 7, 7)) + (float4)(a[id.x] == 5.0f) * 10.0f;
}

// conformance: assigning float4 to float2 keeps .xy (implicit truncation)
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 1 2 1 2 5 6 5 6
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float2 t = a[id.x];
    o[id.x] = float4(t, t);
}

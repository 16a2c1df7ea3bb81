// conformance: swizzles as l-values write only the named components
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 20 2 10 6 20 6 10 14
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float4 v = a[id.x];
    v.zx = float2(10, 20);
    v.w += v.y;
    o[id.x] = v;
}

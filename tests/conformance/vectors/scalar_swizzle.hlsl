// conformance: a scalar can be swizzled with .xxx
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 4 4 4 3 12 12 12 7
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    float s = a[id.x].y;
    o[id.x] = float4(s.xxx, 1.0f) + s.x;
}

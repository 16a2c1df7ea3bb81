// conformance: swizzles read any order and repeat components
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 5 4 4 3 13 12 12 11
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = a[id.x].wzyx + a[id.x].xxyy;
}

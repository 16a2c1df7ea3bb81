// conformance: rgba swizzles name the same components as xyzw
// buffer: a float32 = 1 2 3 4 5 6 7 8
// buffer: o float32[8]
// expect: o = 5 4 3 1 13 12 11 5
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = a[id.x].abgr * float4(1, 1, 1, 0) + a[id.x].rrrr;
}

// conformance: floor and ceil apply per component of a float4
// buffer: a float32 = 2.5 -2.5 0.5 -0.0 1.75 -1.25 9 16
// buffer: o float32[8]
// expect: o = 23 -32 1 -0.0 12 -21 99 176
StructuredBuffer<float4> a;
RWStructuredBuffer<float4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = floor(a[id.x]) * 10.0f + ceil(a[id.x]);
}

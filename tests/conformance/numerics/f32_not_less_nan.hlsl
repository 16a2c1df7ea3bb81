// conformance: !(a < b) is true when either is nan, so it is not a >= b
// buffer: a float32 = nan 1 2 nan
// buffer: b float32 = 1 nan 1 nan
// buffer: o uint32[4]
// expect: o = 7 7 5 7
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = (!(a[id.x] < b[id.x]) ? 1u : 0u) | (!(a[id.x] >= b[id.x]) ? 2u : 0u) | ((a[id.x] < b[id.x]) ? 0u : 4u);
}

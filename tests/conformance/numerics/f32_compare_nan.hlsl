// conformance: every ordered comparison with nan is false, != is true
// buffer: a float32 = nan 1 nan 0 -inf 2
// buffer: b float32 = 1 nan nan -0.0 inf 2
// buffer: o uint32[6]
// expect: o = 8 8 8 52 25 52
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<uint> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] > b[id.x] ? 2u : 0u) | (a[id.x] == b[id.x] ? 4u : 0u) | (a[id.x] != b[id.x] ? 8u : 0u) | (a[id.x] <= b[id.x] ? 16u : 0u) | (a[id.x] >= b[id.x] ? 32u : 0u);
}

// conformance: x == x is false for nan, x != x is true
// buffer: a float32 = nan 1 inf
// buffer: o uint32[3]
// expect: o = 2 9 9
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (x == x ? 1u : 0u) | (x != x ? 2u : 0u) | (x < x ? 4u : 0u) | (x >= x ? 8u : 0u);
}

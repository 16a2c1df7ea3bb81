// conformance: double comparisons, nan unordered
// buffer: a float64 = 1 1.0000000000000002 nan -0.0
// buffer: b float64 = 1.0000000000000002 1 nan 0
// buffer: o uint32[4]
// expect: o = 5 4 4 2
StructuredBuffer<double> a;
StructuredBuffer<double> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] == b[id.x] ? 2u : 0u) | (a[id.x] != b[id.x] ? 4u : 0u);
}

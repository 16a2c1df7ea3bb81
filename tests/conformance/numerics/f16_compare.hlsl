// conformance: half comparisons including nan and -0
// buffer: a float16 = 1 nan -0.0 6.55e+04
// buffer: b float16 = 1.001 1 0 inf
// buffer: o uint32[4]
// expect: o = 1 0 2 1
StructuredBuffer<half> a;
StructuredBuffer<half> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] == b[id.x] ? 2u : 0u);
}

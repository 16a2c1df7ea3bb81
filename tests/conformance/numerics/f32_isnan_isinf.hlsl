// conformance: isnan / isinf / isfinite on every class of value
// buffer: a float32 = 0 -0.0 1 inf -inf nan 3.4e+38 1e-45
// buffer: o uint32[8]
// expect: o = 4 4 4 2 2 1 4 4
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (isnan(x) ? 1u : 0u) | (isinf(x) ? 2u : 0u) | (isfinite(x) ? 4u : 0u);
}

// conformance: rsqrt within 2 ulp
// buffer: a float32 = 0.5 1 2 10 0.001 100 1.5 64
// buffer: ref float32 = 1.4142135 1 0.70710677 0.31622776 31.622776 0.1 0.8164966 0.125
// buffer: o uint32[8]
// expect: o = 1 1 1 1 1 1 1 1
StructuredBuffer<float> a;
StructuredBuffer<float> ref;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    float r = ref[id.x];
    float v = rsqrt(x);
    o[id.x] = abs(v - r) <= 0.0f + 3e-07f * abs(r) ? 1u : 0u;
}

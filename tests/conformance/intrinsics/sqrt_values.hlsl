// conformance: sqrt within 1 ulp
// buffer: a float32 = 0.5 1 2 10 0.001 100 1.5 64
// buffer: ref float32 = 0.70710677 1 1.4142135 3.1622777 0.03162278 10 1.2247449 8
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
    float v = sqrt(x);
    o[id.x] = abs(v - r) <= 0.0f + 2e-07f * abs(r) ? 1u : 0u;
}

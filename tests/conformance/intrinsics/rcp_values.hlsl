// conformance: rcp within 1 ulp
// buffer: a float32 = 0.5 1 2 10 0.001 100 1.5 64
// buffer: ref float32 = 2 1 0.5 0.1 999.99994 0.01 0.6666667 0.015625
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
    float v = rcp(x);
    o[id.x] = abs(v - r) <= 0.0f + 2e-07f * abs(r) ? 1u : 0u;
}

// conformance: exp within 3 ulp-ish
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 1 1.6487212 2.7182817 0.36787945 7.389056 0.082085 20.085537 1.1331484
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
    float v = exp(x);
    o[id.x] = abs(v - r) <= 1e-06f + 4e-06f * abs(r) ? 1u : 0u;
}

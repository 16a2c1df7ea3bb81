// conformance: log2 within 2^-21 absolute near 1
// buffer: a float32 = 0.5 1 2 10 0.001 100 1.5 64
// buffer: ref float32 = -1 0 1 3.321928 -9.965784 6.643856 0.5849625 6
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
    float v = log2(x);
    o[id.x] = abs(v - r) <= 1e-06f + 4e-06f * abs(r) ? 1u : 0u;
}

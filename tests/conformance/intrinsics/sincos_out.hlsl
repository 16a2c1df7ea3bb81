// conformance: sincos writes sin and cos to its out parameters
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 1 1.8364336 2.2232442 -1.1426396 1.402448 -1.9980879 -0.70775247 1.2415471
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
    float v = 0; float s, c; sincos(x, s, c); v = s * 2.0f + c;
    o[id.x] = abs(v - r) <= 3e-06f + 0.0f * abs(r) ? 1u : 0u;
}

// conformance: tan within 2e-6 relative
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 0 0.5463025 1.5574077 -1.5574077 -2.1850398 0.7470223 -0.14254655 0.12565513
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
    float v = tan(x);
    o[id.x] = abs(v - r) <= 1e-06f + 4e-06f * abs(r) ? 1u : 0u;
}

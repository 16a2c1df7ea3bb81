// conformance: atan within 1e-6
// buffer: a float32 = 0 0.5 -0.5 1 -10 1e+06
// buffer: ref float32 = 0 0.4636476 -0.4636476 0.7853982 -1.4711276 1.5707953
// buffer: o uint32[6]
// expect: o = 1 1 1 1 1 1
StructuredBuffer<float> a;
StructuredBuffer<float> ref;
RWStructuredBuffer<uint> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    float r = ref[id.x];
    float v = atan(x);
    o[id.x] = abs(v - r) <= 1e-06f + 2e-06f * abs(r) ? 1u : 0u;
}

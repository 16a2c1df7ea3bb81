// conformance: cosh within 4 ulp-ish
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 1 1.127626 1.5430807 1.5430807 3.7621956 6.1322894 10.067662 1.0078226
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
    float v = cosh(x);
    o[id.x] = abs(v - r) <= 1e-06f + 4e-06f * abs(r) ? 1u : 0u;
}

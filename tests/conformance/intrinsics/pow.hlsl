// conformance: pow(x, 2.5) within a few ulp for positive x
// buffer: a float32 = 0.5 1 2 10 0.001 100
// buffer: ref float32 = 0.17677669 1 5.656854 316.22775 3.162278e-08 100000
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
    float v = pow(x, 2.5f);
    o[id.x] = abs(v - r) <= 1e-06f + 8e-06f * abs(r) ? 1u : 0u;
}

// conformance: sin within 2^-20 absolute on [-pi, pi]
// D3D11.3 gives sin/cos an absolute error bound on [-pi, pi]; 1e-6 is well inside any real GPU's.
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 0 0.47942555 0.84147096 -0.84147096 0.9092974 -0.5984721 0.14112 0.12467473
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
    float v = sin(x);
    o[id.x] = abs(v - r) <= 1e-06f + 0.0f * abs(r) ? 1u : 0u;
}

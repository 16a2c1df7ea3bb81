// conformance: log10 within a few ulp
// buffer: a float32 = 0.5 1 2 10 0.001 100 1.5 64
// buffer: ref float32 = -0.30103 0 0.30103 1 -3 2 0.17609125 1.80618
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
    float v = log10(x);
    o[id.x] = abs(v - r) <= 1e-06f + 4e-06f * abs(r) ? 1u : 0u;
}

// conformance: sqrt of a negative fp32 denormal is -0.0, not NaN: the input flushes first (D3D)
// D3D11.3 3.1.3.3: fp32 denormal inputs flush to sign-preserved zero; sqrt(-0) is -0.
// buffer: a float32 = -1e-45 1e-45 -1.1754942e-38 4
// buffer: o float32[4]
// expect: o = -0.0 0 -0.0 2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = sqrt(a[id.x]);
}

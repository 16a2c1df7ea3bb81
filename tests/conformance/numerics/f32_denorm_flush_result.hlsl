// conformance: an fp32 product below the normal range flushes to sign-preserved zero (D3D)
// D3D11.3 3.1.3.3: fp32 denormal results flush to sign-preserved zero.
// buffer: a float32 = 1e-20 -1e-20 1e-30 1e-19
// buffer: b float32 = 1e-20 1e-20 1e-09 1e+19
// buffer: o float32[4]
// expect: o = 0 -0.0 0 0.99999994
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

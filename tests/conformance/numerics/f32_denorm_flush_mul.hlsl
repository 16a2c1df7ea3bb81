// conformance: fp32 denormal inputs to arithmetic flush to sign-preserved zero (D3D)
// D3D11.3 3.1.3.3 (also D3D12 on RDNA2): fp32 denormals flush to sign-preserved zero in arithmetic.
// buffer: a float32 = 1e-45 -1.1754942e-38 5.877472e-39 -1e-45
// buffer: b float32 = 1 1 1 1
// buffer: o float32[4]
// expect: o = 0 -0.0 0 -0.0
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

// conformance: log of an fp32 denormal reads it as a signed zero: -inf, also for a negative one (D3D)
// D3D11.3 3.1.3.3: fp32 denormal inputs flush to sign-preserved zero; log(+-0) is -inf.
// buffer: a float32 = 1e-45 -1e-45 -5.877472e-39 1
// buffer: o float32[4]
// expect: o = -inf -inf -inf 0
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = log(a[id.x]);
}

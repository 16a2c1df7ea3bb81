// conformance: exp2 with a result below the fp32 normal range gives zero (D3D)
// D3D11.3 3.1.3.3: fp32 denormal results of arithmetic flush to sign-preserved zero.
// buffer: a float32 = -130 -149 -126 1
// buffer: o float32[4]
// expect: o = 0 0 1.1754944e-38 2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = exp2(a[id.x]);
}

// conformance: fmod and % read fp32 denormal operands as signed zeros (D3D)
// D3D11.3 3.1.3.3: fp32 denormal inputs flush to sign-preserved zero; 0 % y is 0.
// buffer: a float32 = 1e-45 -5.877472e-39 7 -7
// buffer: b float32 = 3 3 4 4
// buffer: o float32[4]
// buffer: m float32[4]
// expect: o = 0 -0.0 3 -3
// expect: m = 0 -0.0 3 -3
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;
RWStructuredBuffer<float> m;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = fmod(a[id.x], b[id.x]);
    m[id.x] = a[id.x] % b[id.x];
}

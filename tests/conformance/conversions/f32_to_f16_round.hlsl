// conformance: float to half rounds to nearest even
// 1 + 2^-11 is a tie and rounds to 1 (even); 65520 rounds to inf.
// buffer: a float32 = 1 1.0004883 1.0014648 0.1 65504 65520 -65520 1e-08 6e-05
// buffer: o float16[9]
// expect: o = 1 1 1.002 0.1 6.55e+04 inf -inf 0 6e-05
StructuredBuffer<float> a;
RWStructuredBuffer<half> o;

[numthreads(9, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (half)x;
}

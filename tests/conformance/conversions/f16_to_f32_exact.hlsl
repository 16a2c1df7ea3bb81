// conformance: half to float is exact, denormal halves included
// buffer: a float16 = 6e-08 6.1e-05 1.001 6.55e+04 -inf -0.0
// buffer: o float32[6]
// expect: o = 5.9604645e-08 6.097555e-05 1.0009766 65504 -inf -0.0
StructuredBuffer<half> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half x = a[id.x];
    o[id.x] = (float)x;
}

// conformance: frac(x) is x - floor(x), so frac(-2.7) is 0.3
// buffer: a float32 = 2.5 -2.5 -2.75 1 0.125 -0.125
// buffer: o float32[6]
// expect: o = 0.5 0.5 0.25 0 0.125 0.875
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = frac(x);
}

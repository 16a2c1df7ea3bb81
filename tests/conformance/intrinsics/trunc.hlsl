// conformance: trunc rounds toward zero
// buffer: a float32 = 2.5 -2.5 0.5 -0.5 1.5 2.7 -2.7 -0.0 3 1e+09
// buffer: o float32[10]
// expect: o = 2 -2 0 -0.0 1 2 -2 -0.0 3 1e+09
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(10, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = trunc(x);
}

// conformance: ldexp(x, e) is x * 2^e
// buffer: a float32 = 1.5 -0.25 0 3
// buffer: o float32[4]
// expect: o = 12 -2 0 24
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = ldexp(x, 3.0f);
}

// conformance: lerp(a, b, t) = a + t * (b - a)
// buffer: a float32 = 0 1 0.5 0.25 -1 2
// buffer: o float32[6]
// expect: o = 2 10 6 4 -6 18
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = lerp(2.0f, 10.0f, x);
}

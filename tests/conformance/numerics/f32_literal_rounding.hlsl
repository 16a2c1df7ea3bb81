// conformance: a float literal 0.1f is the nearest fp32 value
// buffer: a float32 = 0 1 -0.1
// buffer: o float32[3]
// expect: o = 0.1 1.1 0
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x + 0.1f;
}

// conformance: 0.0f - x is +0 for x = +0 while -x is -0
// buffer: a float32 = 0 -0.0 2
// buffer: o float32[3]
// expect: o = 0 0 -2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = 0.0f - x;
}

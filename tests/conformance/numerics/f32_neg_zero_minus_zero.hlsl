// conformance: -0 - 0 is -0, so x - 0.0f is x
// buffer: a float32 = -0.0 0 -1.5
// buffer: o float32[3]
// expect: o = -0.0 0 -1.5
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x - 0.0f;
}

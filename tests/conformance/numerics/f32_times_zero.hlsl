// conformance: x * 0.0f is nan for inf and nan and -0 for negative x, so it is not 0
// buffer: a float32 = inf nan -3 2 -inf
// buffer: o float32[5]
// expect: o = nan nan -0.0 0 nan
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x * 0.0f;
}

// conformance: x / x is nan for 0, inf and nan, 1 otherwise
// buffer: a float32 = 0 inf nan 3 -0.0
// buffer: o float32[5]
// expect: o = nan nan nan 1 nan
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x / x;
}

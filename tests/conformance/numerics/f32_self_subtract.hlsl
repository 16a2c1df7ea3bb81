// conformance: x - x is nan for inf and nan
// buffer: a float32 = inf nan 1.5 -inf
// buffer: o float32[4]
// expect: o = nan nan 0 nan
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x - x;
}

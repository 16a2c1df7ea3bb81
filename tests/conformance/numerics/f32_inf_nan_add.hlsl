// conformance: inf + -inf is nan, nan propagates, 0 + -0 is +0
// buffer: a float32 = inf -inf inf nan 0 inf -0.0 5
// buffer: b float32 = -inf -inf 0 1 -0.0 1 0 nan
// buffer: o float32[8]
// expect: o = nan -inf inf nan 0 inf 0 nan
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] + b[id.x];
}

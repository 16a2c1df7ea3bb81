// conformance: 0 * inf is nan, inf * -1 is -inf, nan propagates
// buffer: a float32 = inf -inf inf nan 0 inf -0.0 5
// buffer: b float32 = -inf -inf 0 1 -0.0 1 0 nan
// buffer: o float32[8]
// expect: o = -inf inf nan nan -0.0 inf -0.0 nan
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

// conformance: float division: x/0 = inf with sign, 0/0 = nan, x/inf = 0, inf/inf = nan
// buffer: a float32 = 7 1 -1 0 1 inf -6 3
// buffer: b float32 = 2 0 0 0 inf inf 0.25 -0.0
// buffer: o float32[8]
// expect: o = 3.5 inf -inf nan 0 nan -24 -inf
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}

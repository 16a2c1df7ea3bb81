// conformance: min(x, x) of nan is nan
// max(nan, 1) is 1, times 0 is 0; min(nan, nan) is nan
// buffer: a float32 = nan 2
// buffer: o float32[2]
// expect: o = nan 2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = min(x, x) + max(x, 1.0f) * 0.0f;
}

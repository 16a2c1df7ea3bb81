// conformance: rcp: +-0 gives +-inf, +-inf gives +-0
// buffer: a float32 = 0 -0.0 inf -inf
// buffer: o float32[4]
// expect: o = inf -inf 0 -0.0
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = rcp(x);
}

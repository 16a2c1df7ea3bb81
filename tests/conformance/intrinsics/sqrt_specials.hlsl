// conformance: sqrt: -0 gives -0, negative gives nan, inf gives inf, 4 gives 2
// buffer: a float32 = -0.0 -1 inf 0 4 nan
// buffer: o float32[6]
// expect: o = -0.0 nan inf 0 2 nan
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = sqrt(x);
}

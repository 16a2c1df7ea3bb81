// conformance: log2: 0 gives -inf, negative gives nan, inf gives inf, 1 gives 0
// buffer: a float32 = 0 -1 inf 1 8
// buffer: o float32[5]
// expect: o = -inf nan inf 0 3
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = log2(x);
}

// conformance: step(edge, x) is 1 when x >= edge
// buffer: a float32 = 0 0.5 0.49 1 -inf
// buffer: o float32[5]
// expect: o = 0 1 0 1 0
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = step(0.5f, x);
}

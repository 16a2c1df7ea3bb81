// conformance: min and max on floats, -inf and inf included
// buffer: a float32 = 1 -3 inf -inf 0.5
// buffer: b float32 = 2 -4 0 5 0.5
// buffer: o float32[5]
// expect: o = 4 -11 inf -inf 1.5
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = min(a[id.x], b[id.x]) * 2.0f + max(a[id.x], b[id.x]);
}

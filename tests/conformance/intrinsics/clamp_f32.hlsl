// conformance: clamp(x, lo, hi) is min(max(x, lo), hi)
// buffer: a float32 = -5 0.5 3 -inf inf 2
// buffer: o float32[6]
// expect: o = -1 0.5 2 -1 2 2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = clamp(x, -1.0f, 2.0f);
}

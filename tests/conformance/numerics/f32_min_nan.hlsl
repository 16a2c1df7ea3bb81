// conformance: min(nan, x) and min(x, nan) return x (D3D IEEE minNum)
// buffer: a float32 = nan 1 nan -inf 2 3
// buffer: b float32 = 1 nan nan nan -5 3
// buffer: o float32[6]
// expect: o = 1 1 nan -inf -5 3
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = min(a[id.x], b[id.x]);
}

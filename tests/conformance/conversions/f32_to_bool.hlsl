// conformance: float to bool: only +-0 is false, nan is true
// buffer: a float32 = 0 -0.0 nan 1e-30 -inf
// buffer: o uint32[5]
// expect: o = 0 0 1 1 1
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (uint)(bool)x;
}

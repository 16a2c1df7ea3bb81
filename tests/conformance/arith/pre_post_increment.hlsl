// conformance: x++ yields the old value, ++x the new one
// buffer: a int32 = 0 1 -3 5
// buffer: b int32 = 0 0 0 0
// buffer: o int32[4]
// expect: o = 22 133 -311 577
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = b[id.x]; int v = a[id.x]; int p = v++; int q = ++v; o[id.x] = p * 100 + q * 10 + v;
}

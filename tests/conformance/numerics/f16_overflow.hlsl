// conformance: half arithmetic overflows to inf past 65504
// buffer: a float16 = 4e+04 3.275e+04 -4e+04 6.55e+04
// buffer: o float16[4]
// expect: o = inf 6.55e+04 -inf inf
StructuredBuffer<half> a;
RWStructuredBuffer<half> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half x = a[id.x];
    o[id.x] = x * (half)2.0;
}

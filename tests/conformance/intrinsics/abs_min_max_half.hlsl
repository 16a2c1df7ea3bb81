// conformance: abs / min / max on half
// buffer: a float16 = -2 0.25 3 -0.125
// buffer: o float16[4]
// expect: o = 0 0.5 3 0.375
StructuredBuffer<half> a;
RWStructuredBuffer<half> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half x = a[id.x];
    o[id.x] = max(abs(x), (half)0.5) + min(x, (half)0.0);
}

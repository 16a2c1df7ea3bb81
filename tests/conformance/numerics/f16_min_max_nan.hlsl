// conformance: min / max on half: a nan operand gives the other operand
// buffer: a float16 = nan 1 2 -1
// buffer: b float16 = 3 nan -2 -1
// buffer: o float16[4]
// expect: o = 6 2 0 -2
StructuredBuffer<half> a;
StructuredBuffer<half> b;
RWStructuredBuffer<half> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = min(a[id.x], b[id.x]) + max(a[id.x], b[id.x]);
}

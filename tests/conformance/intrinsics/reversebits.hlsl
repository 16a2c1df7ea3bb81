// conformance: reversebits mirrors the 32 bits
// buffer: a uint32 = 1 2147483648 305419896 0
// buffer: o uint32[4]
// expect: o = 2147483648 1 510274632 0
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = reversebits(x);
}

// conformance: firstbithigh(uint) is the index of the highest set bit, 0xFFFFFFFF for 0
// buffer: a uint32 = 0 1 2147483648 15728640 3
// buffer: o uint32[5]
// expect: o = 4294967295 0 31 23 1
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = firstbithigh(x);
}

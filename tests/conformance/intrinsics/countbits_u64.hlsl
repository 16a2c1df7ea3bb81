// conformance: countbits on uint64_t counts all 64 bits
// buffer: a uint64 = 0 18446744073709551615 9223372036854775809 64424509440
// buffer: o uint32[4]
// expect: o = 0 64 2 4
StructuredBuffer<uint64_t> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint64_t x = a[id.x];
    o[id.x] = countbits(x);
}

// conformance: uint64_t <, <=, ==, != compare as unsigned
// buffer: a uint64 = 18446744073709551615 18446744073709551615 0 5 0 4611686018427387904 3 18446744073709551614
// buffer: b uint64 = 1 18446744073709551615 1 7 1 4 0 2
// buffer: o uint32[8]
// expect: o = 8 6 11 11 11 8 8 8
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] <= b[id.x] ? 2u : 0u) | (a[id.x] == b[id.x] ? 4u : 0u) | (a[id.x] != b[id.x] ? 8u : 0u);
}

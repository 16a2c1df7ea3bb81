// conformance: uint64_t addition carries across the 32-bit halves
// buffer: a uint64 = 4294967295 18446744073709551615 9223372036854775807 4294967296
// buffer: b uint64 = 1 1 1 4294967295
// buffer: o uint64[4]
// expect: o = 4294967296 0 9223372036854775808 8589934591
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] + b[id.x];
}

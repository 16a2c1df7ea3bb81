// conformance: uint64_t multiplication of 32-bit halves keeps 64 bits
// buffer: a uint64 = 4294967295 4294967296 123456789012 3
// buffer: b uint64 = 4294967295 4294967296 1000 6148914691236517206
// buffer: o uint64[4]
// expect: o = 18446744065119617025 0 123456789012000 2
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

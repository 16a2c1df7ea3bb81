// conformance: uint64_t addition wraps modulo 2^64
// buffer: a uint64 = 18446744073709551615 18446744073709551615 0 5 0 4611686018427387904 3 18446744073709551614
// buffer: b uint64 = 1 18446744073709551615 1 7 1 4 0 2
// buffer: o uint64[8]
// expect: o = 0 18446744073709551614 1 12 1 4611686018427387908 3 0
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] + b[id.x];
}

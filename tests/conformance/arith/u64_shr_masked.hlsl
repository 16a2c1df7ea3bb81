// conformance: uint64_t >> is logical and takes the shift amount modulo 64
// buffer: a uint64 = 1 1 3 18446744073709551615 18446744073709551615 85 1 6
// buffer: b uint64 = 0 63 64 65 1 131 191 1
// buffer: o uint64[8]
// expect: o = 1 0 3 9223372036854775807 9223372036854775807 10 0 3
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] >> b[id.x];
}

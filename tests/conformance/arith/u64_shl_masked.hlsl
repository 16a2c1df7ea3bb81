// conformance: uint64_t << takes the shift amount modulo 64, as DXC masks it
// buffer: a uint64 = 1 1 3 18446744073709551615 18446744073709551615 85 1 6
// buffer: b uint64 = 0 63 64 65 1 131 191 1
// buffer: o uint64[8]
// expect: o = 1 9223372036854775808 3 18446744073709551614 18446744073709551614 680 9223372036854775808 12
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] << b[id.x];
}

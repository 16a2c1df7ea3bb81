// conformance: uint64_t &, |, ^ and ~ on every bit
// buffer: a uint64 = 18446744073709551615 0 90 0 12345 1 18446744073709551608 3
// buffer: b uint64 = 0 18446744073709551615 15 0 255 3 7 5
// buffer: o uint64[8]
// expect: o = 18446744073709551614 18446744073709551615 69 18446744073709551615 12230 18446744073709551614 18446744073709551607 0
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] & b[id.x]) ^ ((a[id.x] | b[id.x]) + ~b[id.x]);
}

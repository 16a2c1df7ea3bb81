// conformance: uint64_t division truncates toward zero
// buffer: a uint64 = 7 8 18446744073709551615 0 18446744073709551615 9223372036854775808 100 3
// buffer: b uint64 = 2 2 3 5 18446744073709551615 7 9 4
// buffer: o uint64[8]
// expect: o = 3 4 6148914691236517205 0 1 1317624576693539401 11 0
StructuredBuffer<uint64_t> a;
StructuredBuffer<uint64_t> b;
RWStructuredBuffer<uint64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}

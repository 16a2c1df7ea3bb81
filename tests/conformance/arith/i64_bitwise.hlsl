// conformance: int64_t &, |, ^ and ~ on every bit
// buffer: a int64 = 9223372036854775807 -9223372036854775808 90 0 12345 1 9223372036854775800 3
// buffer: b int64 = -9223372036854775808 9223372036854775807 15 0 255 3 7 5
// buffer: o int64[8]
// expect: o = 9223372036854775806 9223372036854775807 69 -1 12230 -2 9223372036854775799 0
StructuredBuffer<int64_t> a;
StructuredBuffer<int64_t> b;
RWStructuredBuffer<int64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] & b[id.x]) ^ ((a[id.x] | b[id.x]) + ~b[id.x]);
}

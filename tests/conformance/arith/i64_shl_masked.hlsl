// conformance: int64_t << takes the shift amount modulo 64, as DXC masks it
// buffer: a int64 = 1 1 3 9223372036854775807 -9223372036854775808 85 1 6
// buffer: b int64 = 0 63 64 65 1 131 191 1
// buffer: o int64[8]
// expect: o = 1 -9223372036854775808 3 -2 0 680 -9223372036854775808 12
StructuredBuffer<int64_t> a;
StructuredBuffer<int64_t> b;
RWStructuredBuffer<int64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] << b[id.x];
}

// conformance: int64_t remainder has the sign of the dividend
// buffer: a int64 = 7 -7 7 -7 9223372036854775807 -9223372036854775808 0 100
// buffer: b int64 = 2 2 -2 -2 3 7 5 -9
// buffer: o int64[8]
// expect: o = 1 -1 1 -1 1 -1 0 1
StructuredBuffer<int64_t> a;
StructuredBuffer<int64_t> b;
RWStructuredBuffer<int64_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] % b[id.x];
}

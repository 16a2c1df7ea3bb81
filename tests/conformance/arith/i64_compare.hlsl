// conformance: int64_t <, <=, ==, != compare as signed
// buffer: a int64 = 9223372036854775807 9223372036854775807 -9223372036854775808 5 0 4611686018427387904 3 9223372036854775806
// buffer: b int64 = 1 9223372036854775807 -1 -7 -1 4 0 2
// buffer: o uint32[8]
// expect: o = 8 6 11 8 8 8 8 8
StructuredBuffer<int64_t> a;
StructuredBuffer<int64_t> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] <= b[id.x] ? 2u : 0u) | (a[id.x] == b[id.x] ? 4u : 0u) | (a[id.x] != b[id.x] ? 8u : 0u);
}

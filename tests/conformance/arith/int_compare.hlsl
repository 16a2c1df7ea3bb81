// conformance: int <, <=, ==, != compare as signed
// buffer: a int32 = 2147483647 2147483647 -2147483648 5 0 1073741824 3 2147483646
// buffer: b int32 = 1 2147483647 -1 -7 -1 4 0 2
// buffer: o uint32[8]
// expect: o = 8 6 11 8 8 8 8 8
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] <= b[id.x] ? 2u : 0u) | (a[id.x] == b[id.x] ? 4u : 0u) | (a[id.x] != b[id.x] ? 8u : 0u);
}

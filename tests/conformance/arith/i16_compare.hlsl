// conformance: int16_t <, <=, ==, != compare as signed
// buffer: a int16 = 32767 32767 -32768 5 0 16384 3 32766
// buffer: b int16 = 1 32767 -1 -7 -1 4 0 2
// buffer: o uint32[8]
// expect: o = 8 6 11 8 8 8 8 8
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] <= b[id.x] ? 2u : 0u) | (a[id.x] == b[id.x] ? 4u : 0u) | (a[id.x] != b[id.x] ? 8u : 0u);
}

// conformance: uint16_t <, <=, ==, != compare as unsigned
// buffer: a uint16 = 65535 65535 0 5 0 16384 3 65534
// buffer: b uint16 = 1 65535 1 7 1 4 0 2
// buffer: o uint32[8]
// expect: o = 8 6 11 11 11 8 8 8
StructuredBuffer<uint16_t> a;
StructuredBuffer<uint16_t> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] < b[id.x] ? 1u : 0u) | (a[id.x] <= b[id.x] ? 2u : 0u) | (a[id.x] == b[id.x] ? 4u : 0u) | (a[id.x] != b[id.x] ? 8u : 0u);
}

// conformance: uint16_t arithmetic stays 16-bit (no C integer promotion)
// buffer: a uint16 = 65535 32768 2 100
// buffer: b uint16 = 1 32768 2 28
// buffer: o uint16[4]
// expect: o = 0 0 2 64
StructuredBuffer<uint16_t> a;
StructuredBuffer<uint16_t> b;
RWStructuredBuffer<uint16_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] + b[id.x]) >> (uint16_t)1;
}

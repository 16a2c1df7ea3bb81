// conformance: unary minus on uint16_t wraps (two's complement)
// buffer: a uint16 = 65535 65535 0 5 0 16384 3 65534
// buffer: b uint16 = 1 65535 1 7 1 4 0 2
// buffer: o uint16[8]
// expect: o = 1 1 0 65531 0 49152 65533 2
StructuredBuffer<uint16_t> a;
StructuredBuffer<uint16_t> b;
RWStructuredBuffer<uint16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = -a[id.x] + b[id.x] * 0;
}

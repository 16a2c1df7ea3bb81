// conformance: uint16_t << takes the shift amount modulo 16, as DXC masks it
// buffer: a uint16 = 1 1 3 65535 65535 85 1 6
// buffer: b uint16 = 0 15 16 17 1 35 47 1
// buffer: o uint16[8]
// expect: o = 1 32768 3 65534 65534 680 32768 12
StructuredBuffer<uint16_t> a;
StructuredBuffer<uint16_t> b;
RWStructuredBuffer<uint16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] << b[id.x];
}

// conformance: uint16_t remainder has the sign of the dividend
// buffer: a uint16 = 7 8 65535 0 65535 32768 100 3
// buffer: b uint16 = 2 2 3 5 65535 7 9 4
// buffer: o uint16[8]
// expect: o = 1 0 0 0 0 1 1 3
StructuredBuffer<uint16_t> a;
StructuredBuffer<uint16_t> b;
RWStructuredBuffer<uint16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] % b[id.x];
}

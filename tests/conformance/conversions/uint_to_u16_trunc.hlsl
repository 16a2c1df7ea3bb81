// conformance: uint to uint16_t keeps the low 16 bits
// buffer: a uint32 = 74565 65535 65536 7
// buffer: o uint16[4]
// expect: o = 9029 65535 0 7
StructuredBuffer<uint> a;
RWStructuredBuffer<uint16_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = (uint16_t)x;
}

// conformance: asuint16 reinterprets int16_t bits as uint16_t
// buffer: a int16 = 0 -1 -32768 32767 15360 -1024
// buffer: o uint16[6]
// expect: o = 0 65535 32768 32767 15360 64512
StructuredBuffer<int16_t> a;
RWStructuredBuffer<uint16_t> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asuint16(a[id.x]);
}

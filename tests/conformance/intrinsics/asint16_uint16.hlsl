// conformance: asint16 reinterprets uint16_t bits as int16_t (no value conversion)
// buffer: a uint16 = 0 1 32767 32768 65535 15360
// buffer: o int16[6]
// expect: o = 0 1 32767 -32768 -1 15360
StructuredBuffer<uint16_t> a;
RWStructuredBuffer<int16_t> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asint16(a[id.x]);
}

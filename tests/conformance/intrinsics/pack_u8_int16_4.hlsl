// conformance: pack_u8 on int16_t4: the low byte of each 16-bit component
// buffer: v int16 = 1 -2 300 -300 32767 -32768 128 -129
// buffer: o uint32[2]
// expect: o = 3559718401 2139095295
StructuredBuffer<int16_t4> v;
RWStructuredBuffer<uint> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = pack_u8(v[id.x]);
}

// conformance: uint8_t4_packed / int8_t4_packed hold the uint bits unchanged through buffers
// buffer: p uint32 = 16909060 4286579071 2139127807 0
// buffer: o uint32[4]
// expect: o = 16909060 4286579071 2139127807 0
StructuredBuffer<uint8_t4_packed> p;
RWStructuredBuffer<uint8_t4_packed> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int8_t4_packed s = (int8_t4_packed)p[id.x];
    o[id.x] = pack_s8(unpack_s8s32(s));
}

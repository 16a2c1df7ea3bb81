// conformance: unpack_s8s32 sign-extends each byte to int, x from the lowest byte
// buffer: p uint32 = 16909060 4286579071 2139127807 0
// buffer: o int32[16]
// expect: o = 4 3 2 1 127 1 -128 -1 -1 127 -128 127 0 0 0 0
StructuredBuffer<uint> p;
RWStructuredBuffer<int4> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = unpack_s8s32((int8_t4_packed)p[id.x]);
}

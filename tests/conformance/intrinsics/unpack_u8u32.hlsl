// conformance: unpack_u8u32 zero-extends each byte to uint (a plain uint argument converts)
// buffer: p uint32 = 16909060 4286579071 2139127807 0
// buffer: o uint32[16]
// expect: o = 4 3 2 1 127 1 128 255 255 127 128 127 0 0 0 0
StructuredBuffer<uint> p;
RWStructuredBuffer<uint4> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = unpack_u8u32(p[id.x]);
}

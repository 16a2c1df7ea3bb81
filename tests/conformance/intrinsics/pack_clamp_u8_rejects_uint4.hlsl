// conformance: pack_clamp_u8 takes signed 16- or 32-bit vectors: uint4 is an error
// error: 'pack_clamp_u8' needs a 16- or 32-bit signed int type
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = pack_clamp_u8(uint4(1, 2, 3, 4));
}

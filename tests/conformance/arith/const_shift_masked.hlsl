// conformance: constant-folded shifts take the amount modulo 32
// buffer: o uint32[4]
// expect: o = 2 268435456 4294967292 3
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = 1u << 33;
    o[1] = 0x80000000u >> 35;
    o[2] = (uint)(-8 >> 33);
    o[3] = 3u << 32;
}

// conformance: constant-folded countbits / firstbithigh / firstbitlow / reversebits
// buffer: o uint32[6]
// expect: o = 8 4294967295 4294967295 2147483648 4294967295 16
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = countbits(0xF0F0u);
    o[1] = firstbithigh(0u);
    o[2] = firstbitlow(0u);
    o[3] = reversebits(1u);
    o[4] = (uint)firstbithigh(-1);
    o[5] = firstbithigh(0x00010000u);
}

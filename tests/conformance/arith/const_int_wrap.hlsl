// conformance: constant-folded int arithmetic wraps at 32 bits
// buffer: o uint32[4]
// expect: o = 2147483648 1 2147483647 4294967295
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (uint)(0x7FFFFFFF + 1);
    o[1] = 0xFFFFFFFFu * 0xFFFFFFFFu;
    o[2] = (uint)(-2147483647 - 2);
    o[3] = 0u - 1u;
}

// conformance: constant-folded signed division truncates toward zero
// buffer: o uint32[4]
// expect: o = 4294967293 4294967295 4294967293 1
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[0] = (uint)(-7 / 2);
    o[1] = (uint)(-7 % 2);
    o[2] = (uint)(7 / -2);
    o[3] = (uint)(7 % -2);
}

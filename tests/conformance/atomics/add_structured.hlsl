// conformance: InterlockedAdd on a RWStructuredBuffer<uint> from 64 threads of 2 groups
// groups: 2,1,1
// buffer: o uint32[2]
// expect: o = 8256 128
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    InterlockedAdd(o[0], id.x + 1);
    InterlockedAdd(o[1], 1);
}

// conformance: SV_GroupID is the group's coordinate in the dispatch
// groups: 3,2,2
// buffer: o uint32[48]
// expect: o = 0 0 0 0 1 1 1 1 2 2 2 2 100 100 100 100 101 101 101 101 102 102 102 102 10000 10000 10000 10000 10001 10001 10001 10001 10002 10002 10002 10002 10100 10100 10100 10100 10101 10101 10101 10101 10102 10102 10102 10102
RWStructuredBuffer<uint> o;

[numthreads(2, 2, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint flat = ((gid.z * 2 + gid.y) * 3 + gid.x) * 4 + gi;
    o[flat] = gid.x + gid.y * 100 + gid.z * 10000;
}

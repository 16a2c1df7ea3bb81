// conformance: SV_GroupThreadID is the thread's coordinate in its group
// groups: 1,2,1
// buffer: o uint32[48]
// expect: o = 0 1 2 3 100 101 102 103 200 201 202 203 10000 10001 10002 10003 10100 10101 10102 10103 10200 10201 10202 10203 0 1 2 3 100 101 102 103 200 201 202 203 10000 10001 10002 10003 10100 10101 10102 10103 10200 10201 10202 10203
RWStructuredBuffer<uint> o;

[numthreads(4, 3, 2)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint flat = ((gid.z * 2 + gid.y) * 1 + gid.x) * 24 + gi;
    o[flat] = tid.x + tid.y * 100 + tid.z * 10000;
}

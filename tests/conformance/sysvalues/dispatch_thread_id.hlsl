// conformance: SV_DispatchThreadID = SV_GroupID * numthreads + SV_GroupThreadID
// groups: 2,3,1
// buffer: o uint32[96]
// expect: o = 0 1 2 3 100 101 102 103 10000 10001 10002 10003 10100 10101 10102 10103 4 5 6 7 104 105 106 107 10004 10005 10006 10007 10104 10105 10106 10107 200 201 202 203 300 301 302 303 10200 10201 10202 10203 10300 10301 10302 10303 204 205 206 207 304 305 306 307 10204 10205 10206 10207 10304 10305 10306 10307 400 401 402 403 500 501 502 503 10400 10401 10402 10403 10500 10501 10502 10503 404 405 406 407 504 505 506 507 10404 10405 10406 10407 10504 10505 10506 10507
RWStructuredBuffer<uint> o;

[numthreads(4, 2, 2)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint flat = ((gid.z * 3 + gid.y) * 2 + gid.x) * 16 + gi;
    o[flat] = id.x + id.y * 100 + id.z * 10000;
}

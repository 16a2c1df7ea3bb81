// conformance: a 1-D dispatch of 17 groups of 3 threads covers every thread once
// groups: 17,1,1
// buffer: o uint32[51]
// expect: o = 1 3 5 7 9 11 13 15 17 19 21 23 25 27 29 31 33 35 37 39 41 43 45 47 49 51 53 55 57 59 61 63 65 67 69 71 73 75 77 79 81 83 85 87 89 91 93 95 97 99 101
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint flat = ((gid.z * 1 + gid.y) * 17 + gid.x) * 3 + gi;
    o[flat] = id.x * 2 + 1;
}

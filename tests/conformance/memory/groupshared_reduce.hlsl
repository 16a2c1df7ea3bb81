// conformance: groupshared tree reduction with GroupMemoryBarrierWithGroupSync
// groups: 2,1,1
// buffer: a uint32 = 11 48 85 21 58 95 31 68 4 41 78 14 51 88 24 61 98 34 71 7 44 81 17 54 91 27 64 0 37 74 10 47 84 20 57 94 30 67 3 40 77 13 50 87 23 60 97 33 70 6 43 80 16 53 90 26 63 100 36 73 9 46 83 19 19 83 46 9 73 36 100 63 26 90 53 16 80 43 6 70 33 97 60 23 87 50 13 77 40 3 67 30 94 57 20 84 47 10 74 37 0 64 27 91 54 17 81 44 7 71 34 98 61 24 88 51 14 78 41 4 68 31 95 58 21 85 48 11
// buffer: o uint32[2]
// expect: o = 3182 3182
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
groupshared uint tmp[64];

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    tmp[gi] = a[id.x];
    GroupMemoryBarrierWithGroupSync();
    for (uint s = 32; s > 0; s >>= 1) {
        if (gi < s) tmp[gi] += tmp[gi + s];
        GroupMemoryBarrierWithGroupSync();
    }
    if (gi == 0) o[gid.x] = tmp[0];
}

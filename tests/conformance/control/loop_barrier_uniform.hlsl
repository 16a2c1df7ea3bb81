// conformance: a barrier inside a loop with a group-uniform trip count
// buffer: o uint32[64]
// expect: o = 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64 65 66 3 4 5
RWStructuredBuffer<uint> o;
groupshared uint buf[64];

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint v = gi;
    for (uint i = 0; i < 3; i++) {
        buf[gi] = v;
        GroupMemoryBarrierWithGroupSync();
        v = buf[(gi + 1) % 64] + 1;
        GroupMemoryBarrierWithGroupSync();
    }
    o[gi] = v;
}

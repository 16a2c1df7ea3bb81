// conformance: WaveReadLaneAt reads a given lane's value (uniform index) (wave64)
// wave: 64
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335 335
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[gi] = WaveReadLaneAt(a[gi], 5) * 100 + WaveReadLaneAt(a[gi], WaveGetLaneCount() - 1);
}

// conformance: WaveMultiPrefixSum sums lower lanes in the same WaveMatch partition (wave32)
// wave: 32
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 0 0 8 37 24 0 48 3 80 14 120 33 0 60 6 95 20 82 42 83 72 92 110 109 168 134 172 167 184 208 204 138 0 0 36 15 0 38 2 69 12 108 30 0 56 5 90 18 132 39 80 68 88 105 104 155 128 158 160 169 200 188 182 215
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint4 m = WaveMatch(a[gi] % 4);
    o[gi] = WaveMultiPrefixSum(a[gi], m);
}

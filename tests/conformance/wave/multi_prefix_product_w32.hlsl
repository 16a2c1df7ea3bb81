// conformance: WaveMultiPrefixProduct multiplies lower lanes in the same partition (wave32)
// wave: 32
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 1 1 3 2 6 1 6 1 18 3 36 6 1 6 1 18 3 2 6 4 6 4 18 12 36 24 72 24 72 72 216 36 1 1 1 1 1 3 3 6 6 6 6 1 18 3 36 6 36 6 3 18 9 36 18 18 18 18 54 54 108 108 108 108
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint4 m = WaveMatch(a[gi] % 4);
    o[gi] = WaveMultiPrefixProduct(a[gi] % 3 + 1, m);
}

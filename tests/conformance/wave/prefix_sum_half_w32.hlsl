// conformance: WavePrefixSum on half values whose sums stay exact (wave32)
// wave: 32
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: oh float16[64]
// expect: oh = 0 4 22.5 30.5 53 65 66.5 82.5 88 108 117.5 141.5 155 158 175.5 182.5 204 215 215.5 230.5 235 254 262.5 285.5 298 300 316.5 322.5 343 353 377.5 391.5 0 18 25.5 47.5 59 60 75.5 80.5 100 109 132.5 145.5 148 165 171.5 192.5 203 228 242.5 246.5 265 273 295.5 307.5 309 325 330.5 350.5 360 384 397.5 400.5
StructuredBuffer<uint> a;
RWStructuredBuffer<half> oh;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    oh[gi] = WavePrefixSum((half)a[gi] * (half)0.5);
}

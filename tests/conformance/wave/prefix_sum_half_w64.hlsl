// conformance: WavePrefixSum on half values whose sums stay exact (wave64)
// wave: 64
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: oh float16[64]
// expect: oh = 0 4 22.5 30.5 53 65 66.5 82.5 88 108 117.5 141.5 155 158 175.5 182.5 204 215 215.5 230.5 235 254 262.5 285.5 298 300 316.5 322.5 343 353 377.5 391.5 395 413 420.5 442.5 454 455 470.5 475.5 495 504 527.5 540.5 543 560 566.5 587.5 598 623 637.5 641.5 660 668 690.5 702.5 704 720 725.5 745.5 755 779 792.5 795.5
StructuredBuffer<uint> a;
RWStructuredBuffer<half> oh;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    oh[gi] = WavePrefixSum((half)a[gi] * (half)0.5);
}

// conformance: WavePrefixSum in a data-dependent branch skips inactive lanes (wave64)
// wave: 64
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 0 0 0 37 0 82 0 85 0 96 0 115 0 142 0 177 0 220 0 221 0 230 0 247 0 272 0 305 0 346 0 395 0 402 0 417 0 440 0 471 0 510 0 557 0 562 0 575 0 596 0 625 0 662 0 707 0 710 0 721 0 740 0 767
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    if (a[gi] & 1) o[gi] = WavePrefixSum(a[gi]);
}

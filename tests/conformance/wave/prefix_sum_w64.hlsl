// conformance: WavePrefixSum is the exclusive sum of lower lanes (wave64)
// wave: 64
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 0 8 45 61 106 130 133 165 176 216 235 283 310 316 351 365 408 430 431 461 470 508 525 571 596 600 633 645 686 706 755 783 790 826 841 885 908 910 941 951 990 1008 1055 1081 1086 1120 1133 1175 1196 1246 1275 1283 1320 1336 1381 1405 1408 1440 1451 1491 1510 1558 1585 1591
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[gi] = WavePrefixSum(a[gi]);
}

// conformance: QuadReadAcrossDiagonal swaps lanes 0<->3 and 1<->2
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 45 16 37 8 11 32 3 24 27 48 19 40 43 14 35 6 9 30 1 22 25 46 17 38 41 12 33 4 7 28 49 20 23 44 15 36 39 10 31 2 5 26 47 18 21 42 13 34 37 8 29 50 3 24 45 16 19 40 11 32 35 6 27 48
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[gi] = QuadReadAcrossDiagonal(a[gi]);
}

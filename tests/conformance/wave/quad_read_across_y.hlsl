// conformance: QuadReadAcrossY swaps lanes 0<->2 and 1<->3 of each quad
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 16 45 8 37 32 11 24 3 48 27 40 19 14 43 6 35 30 9 22 1 46 25 38 17 12 41 4 33 28 7 20 49 44 23 36 15 10 39 2 31 26 5 18 47 42 21 34 13 8 37 50 29 24 3 16 45 40 19 32 11 6 35 48 27
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[gi] = QuadReadAcrossY(a[gi]);
}

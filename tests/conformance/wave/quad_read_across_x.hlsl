// conformance: QuadReadAcrossX swaps lanes 0<->1 and 2<->3 of each quad
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 37 8 45 16 3 24 11 32 19 40 27 48 35 6 43 14 1 22 9 30 17 38 25 46 33 4 41 12 49 20 7 28 15 36 23 44 31 2 39 10 47 18 5 26 13 34 21 42 29 50 37 8 45 16 3 24 11 32 19 40 27 48 35 6
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[gi] = QuadReadAcrossX(a[gi]);
}

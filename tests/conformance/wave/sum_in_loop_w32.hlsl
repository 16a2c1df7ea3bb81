// conformance: WaveActiveSum inside a loop whose trip count differs per lane (wave32)
// wave: 32
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 0 22 0 22 0 42 0 42 0 42 0 42 35 42 35 42 35 22 35 22 35 22 35 22 0 22 0 22 0 22 0 42 0 52 0 52 42 52 42 52 42 52 42 24 42 24 42 24 42 24 0 24 0 24 0 52 0 52 0 52 0 52 42 52
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint s = 0;
    for (uint i = 0; i < a[gi] % 4; i++) { s += WaveActiveSum(1u); }
    o[gi] = s;
}

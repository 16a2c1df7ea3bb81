// conformance: lanes of one wave take both sides of an if and reconverge
// buffer: a uint32 = 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
// buffer: o uint32[64]
// expect: o = 12 16 14 18 16 20 18 22 20 24 22 26 24 28 26 30 28 32 30 34 32 36 34 38 36 40 38 42 40 44 42 46 44 48 46 50 48 52 50 54 52 56 54 58 56 60 58 62 60 64 62 66 64 68 66 70 68 72 70 74 72 76 74 78
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint x = a[id.x];
    uint r = 5;
    if (x & 1) { r *= 3; } else { r += 7; }
    o[id.x] = r + x;
}

// conformance: threads read what other threads (other waves at wave32) wrote to groupshared memory after a barrier
// buffer: a uint32 = 11 48 85 21 58 95 31 68 4 41 78 14 51 88 24 61 98 34 71 7 44 81 17 54 91 27 64 0 37 74 10 47 84 20 57 94 30 67 3 40 77 13 50 87 23 60 97 33 70 6 43 80 16 53 90 26 63 100 36 73 9 46 83 19
// buffer: o uint32[64]
// expect: o = 38 166 92 18 146 72 200 126 52 180 106 32 160 86 12 140 66 194 120 46 174 100 26 154 80 6 134 60 188 114 40 168 94 20 148 74 0 128 54 182 108 34 162 88 14 142 68 196 122 48 176 102 28 156 82 8 136 62 190 116 42 170 96 22
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
groupshared uint tmp[64];

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    tmp[gi] = a[id.x] * 2;
    GroupMemoryBarrierWithGroupSync();
    o[id.x] = tmp[63 - gi];
}

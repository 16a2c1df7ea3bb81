// conformance: WaveMultiPrefixBitAnd / BitOr / BitXor within a partition (wave64)
// wave: 64
// buffer: a uint32 = 8 37 16 45 24 3 32 11 40 19 48 27 6 35 14 43 22 1 30 9 38 17 46 25 4 33 12 41 20 49 28 7 36 15 44 23 2 31 10 39 18 47 26 5 34 13 42 21 50 29 8 37 16 45 24 3 32 11 40 19 48 27 6 35
// buffer: o uint32[64]
// expect: o = 4294901760 4294901760 526344 2434341 6168 4294901760 6144 197379 14368 199432 14344 203547 4294901760 203520 394758 211747 396808 2436360 400926 77065 400896 77056 409126 81169 14392 81160 15420 81193 15408 81152 15396 211720 15416 212751 15388 212736 409096 212759 146954 212744 146944 212783 146962 81201 146952 81204 146986 81209 146944 81196 15408 81201 15416 81172 15400 212736 15408 212739 15376 212744 15416 212763 146994 212736
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint4 m = WaveMatch(a[gi] % 4);
    o[gi] = (WaveMultiPrefixBitOr(a[gi], m) << 8) ^ WaveMultiPrefixBitXor(a[gi], m) ^ (WaveMultiPrefixBitAnd(a[gi], m) << 16);
}

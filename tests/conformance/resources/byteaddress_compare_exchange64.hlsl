// conformance: InterlockedCompareExchange64: only the thread that finds the compare value stores; 64-bit compare
// buffer: raw uint32 = 5 1 0 0
// buffer: winners uint32[1]
// expect: raw = 7 9 0 0
// expect: winners = 1
RWByteAddressBuffer raw;
RWStructuredBuffer<uint> winners;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint64_t original;
    // 0x1_00000005 -> 0x9_00000007; a compare of 5 (high dword 0) never matches
    raw.InterlockedCompareExchange64(0, (uint64_t)5, (uint64_t)3, original);
    raw.InterlockedCompareExchange64(0, 0x100000005ull, 0x900000007ull, original);
    if (original == 0x100000005ull)
        InterlockedAdd(winners[0], 1);
}

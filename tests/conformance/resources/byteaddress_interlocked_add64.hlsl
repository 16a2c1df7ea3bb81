// conformance: InterlockedAdd64 on a byte address: 64 threads add 0x100000001 each; originals are distinct multiples
// buffer: raw uint64[2]
// buffer: seen uint32[1]
// expect: raw = 274877907008 0
// expect: seen = 64
RWByteAddressBuffer raw;
RWStructuredBuffer<uint> seen;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint64_t original;
    raw.InterlockedAdd64(0, 0x100000001ull, original);
    // every original is k * 0x100000001 for a distinct k in 0..63: both halves equal
    if ((uint)original == (uint)(original >> 32) && (uint)original < 64)
        InterlockedAdd(seen[0], 1);
}

// conformance: InterlockedMin64/Max64 compare as signed for int64_t values and as unsigned for uint64_t ones
// buffer: raw int64 = 0 0 0 0
// expect: raw = -64 0 -1 63
RWByteAddressBuffer raw;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int64_t v = (int64_t)id.x - 64;               // -64 .. -1
    raw.InterlockedMin64(0, v);                    // signed: -64
    raw.InterlockedMax64(8, v);                    // signed: 0 stays (all negative)
    raw.InterlockedMax64(16, (uint64_t)v);         // unsigned: -1 is the largest
    raw.InterlockedMax64(24, (int64_t)id.x);       // 63
}

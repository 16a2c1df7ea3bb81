// conformance: RWByteAddressBuffer InterlockedMin / Max / CompareStore
// buffer: raw uint32 = 0 4294967295 0
// expect: raw = 63 10 77
RWByteAddressBuffer raw;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    raw.InterlockedMax(0, id.x);
    raw.InterlockedMin(4, id.x + 10);
    raw.InterlockedCompareStore(8, 0, 77);
}

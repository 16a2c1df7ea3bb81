// conformance: InterlockedAdd on a RWByteAddressBuffer at byte offsets
// buffer: raw uint32[5]
// expect: raw = 16 16 16 16 128
RWByteAddressBuffer raw;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    raw.InterlockedAdd((id.x % 4) * 4, 1);
    uint old;
    raw.InterlockedAdd(16, 2, old);
}

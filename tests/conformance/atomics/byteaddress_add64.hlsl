// conformance: RWByteAddressBuffer.InterlockedAdd64 adds 64-bit values (SM 6.6)
// buffer: raw uint32[4]
// expect: raw = 0 0 64 64
RWByteAddressBuffer raw;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    raw.InterlockedAdd64(8, 0x100000001ull);
}

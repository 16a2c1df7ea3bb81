// conformance: ByteAddressBuffer loads past the end give 0, stores past the end are dropped
// buffer: raw uint32 = 1 2 3 4
// expect: raw = 1 2 8 9
RWByteAddressBuffer raw;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    raw.Store(id.x * 4 + 8, raw.Load(id.x * 4 + 8) + 5);
}

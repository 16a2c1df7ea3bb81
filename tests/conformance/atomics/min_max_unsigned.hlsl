// conformance: InterlockedMin / InterlockedMax on uint compare unsigned
// buffer: o uint32 = 4294967295 0
// expect: o = 0 4227858432
RWStructuredBuffer<uint> o;

[numthreads(64, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint v = id.x * 0x04000000u;
    InterlockedMin(o[0], v);
    InterlockedMax(o[1], v);
}

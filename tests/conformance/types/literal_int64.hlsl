// conformance: an integer literal too large for 32 bits keeps its 64-bit value
// buffer: a uint32 = 5
// buffer: o64 int64[3]
// expect: o64 = 4294967301 1152921504606846975 8589934592
StructuredBuffer<uint> a;
RWStructuredBuffer<int64_t> o64;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    int64_t big = 0x100000000;
    uint64_t huge = 0xFFFFFFFFFFFFFFFF;
    o64[0] = big + (int64_t)a[0];
    o64[1] = (int64_t)(huge >> 4);
    o64[2] = (int64_t)0x100000000 * 2;
}

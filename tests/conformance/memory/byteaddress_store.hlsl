// conformance: RWByteAddressBuffer Store / Store2 / Store3 / Store4
// buffer: raw uint32[12]
// expect: raw = 1 2 3 4 5 6 7 8 9 10 0 102
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    raw.Store(0, 1u);
    raw.Store2(4, uint2(2, 3));
    raw.Store3(12, uint3(4, 5, 6));
    raw.Store4(24, uint4(7, 8, 9, 10));
    raw.Store(44, raw.Load(4) + 100);
}

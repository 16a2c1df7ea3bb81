// conformance: byte offsets computed at run time, divergent per lane
// buffer: a uint32 = 3 2 1 0 7
// buffer: in4 uint32 = 5 6 7 8
// buffer: out4 uint32[5]
// expect: out4 = 80 70 60 50 80
StructuredBuffer<uint> a;
ByteAddressBuffer in4;
RWByteAddressBuffer out4;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint off = (a[id.x] % 4) * 4;
    out4.Store(id.x * 4, in4.Load(off) * 10);
}

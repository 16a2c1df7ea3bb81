// conformance: the status overloads of Load return the element and a status for which CheckAccessFullyMapped is true
// buffer: raw uint32 = 11 22 33 44
// buffer: sb uint32 = 5 6 7
// buffer: o uint32[4]
// expect: o = 22 77 7 1
ByteAddressBuffer raw;
StructuredBuffer<uint> sb;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint s1, s2, s3;
    o[0] = raw.Load(4, s1);
    uint2 pair = raw.Load2(8, s2);
    o[1] = pair.x + pair.y;
    o[2] = sb.Load(2, s3);
    o[3] = (CheckAccessFullyMapped(s1) && CheckAccessFullyMapped(s2) && CheckAccessFullyMapped(s3)) ? 1 : 0;
}

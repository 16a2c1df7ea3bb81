// conformance: ByteAddressBuffer Load / Load2 / Load3 / Load4 at byte offsets
// buffer: raw uint32 = 100 101 102 103 104 105 106 107 108 109 110 111 112 113 114 115
// buffer: o uint32[8]
// expect: o = 100 101 210 104 101 103 210 104
ByteAddressBuffer raw;
RWStructuredBuffer<uint> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint4 v4 = raw.Load4(16);
    uint3 v3 = raw.Load3(4);
    uint2 v2 = raw.Load2(id.x * 8);
    o[id.x * 4 + 0] = raw.Load(id.x * 4);
    o[id.x * 4 + 1] = v2.y;
    o[id.x * 4 + 2] = v3.z + v4.w;
    o[id.x * 4 + 3] = v4.x;
}

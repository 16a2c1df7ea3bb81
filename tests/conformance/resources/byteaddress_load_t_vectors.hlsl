// conformance: ByteAddressBuffer Load<float2>/Store<float2> and Load<uint3>: the bytes at the address, no conversion
// buffer: raw uint32 = 0x3fc00000 0x40200000 0xc0800000 7 8 9 0 0 0 0
// expect: raw = 0x3fc00000 0x40200000 0xc0800000 7 8 9 0x40400000 0x40a00000 0xc1000000 24
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float2 v = raw.Load<float2>(0);   // 1.5, 2.5
    float w = raw.Load<float>(8);     // -4.0
    uint3 u = raw.Load<uint3>(12);    // 7, 8, 9
    raw.Store<float2>(24, v * 2 - float2(0, 0));
    raw.Store<float>(32, w * 2);
    raw.Store<uint>(36, u.x + u.y + u.z);
}

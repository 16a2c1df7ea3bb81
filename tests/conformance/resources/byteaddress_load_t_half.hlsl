// conformance: Load<half>/Store<half> at 2-byte-aligned addresses reach the upper half of a dword; other bytes stay
// buffer: raw uint16 = 0x3e00 0x4100 0x1111 0x2222 0x3333 0x4444
// expect: raw = 0x3e00 0x4100 0x1111 0x4300 0x3333 0x4444
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half a = raw.Load<half>(0);    // 1.5
    half b = raw.Load<half>(2);    // 2.5
    raw.Store<half>(6, a + b + (half)-0.5);   // 3.5 = 0x4300 into bytes 6..7 only
}

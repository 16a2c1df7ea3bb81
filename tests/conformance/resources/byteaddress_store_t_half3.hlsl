// conformance: Store<half3> writes exactly 6 bytes (the 2 after it keep their value); Load<half3> at 2-aligned bytes
// buffer: raw uint16 = 0x3c00 0x4000 0x4200 0x4400 0x7777 0x7777 0x7777 0x5555
// expect: raw = 0x3c00 0x4000 0x4200 0x4400 0x4400 0x4200 0x4000 0x5555
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    half3 v = raw.Load<half3>(2);   // 2, 3, 4
    raw.Store<half3>(8, v.zyx);
}

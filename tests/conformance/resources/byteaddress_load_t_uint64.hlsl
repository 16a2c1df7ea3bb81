// conformance: Load<uint64_t>/Store<uint64_t>: little-endian dword pairs; the carry crosses into the high dword
// buffer: raw uint32 = 0xffffffff 0x00000007 0 0 0xfffffffe 0xffffffff 0 0
// expect: raw = 0xffffffff 0x00000007 0x00000000 0x00000008 0xfffffffe 0xffffffff 0xfffffffd 0xffffffff
RWByteAddressBuffer raw;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    raw.Store<uint64_t>(8, raw.Load<uint64_t>(0) + 1);
    raw.Store<int64_t>(24, raw.Load<int64_t>(16) - 1);   // -2 - 1 = -3
}

// conformance: an unsuffixed integer literal too wide for 32 bits keeps its 64-bit value (DXC's literal int is 64-bit)
// buffer: o uint64[3]
// expect: o = 4294967297 4294967297 4294967297
RWStructuredBuffer<uint64_t> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = 0x100000001;
    o[1] = (uint64_t)0x100000001;
    o[2] = 4294967297;
}

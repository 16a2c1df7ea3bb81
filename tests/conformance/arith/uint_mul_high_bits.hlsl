// conformance: uint products drop the high word
// buffer: a uint32 = 65536 65535 2147483649 3
// buffer: b uint32 = 65536 65537 2 1431655766
// buffer: o uint32[4]
// expect: o = 0 4294967295 2 2
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

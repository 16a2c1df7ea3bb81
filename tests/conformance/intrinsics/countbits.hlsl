// conformance: countbits counts set bits
// buffer: a uint32 = 0 1 4294967295 2147483649 4042322160
// buffer: o uint32[5]
// expect: o = 0 1 32 2 16
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint x = a[id.x];
    o[id.x] = countbits(x);
}

// conformance: uint remainder has the sign of the dividend
// buffer: a uint32 = 7 8 4294967295 0 4294967295 2147483648 100 3
// buffer: b uint32 = 2 2 3 5 4294967295 7 9 4
// buffer: o uint32[8]
// expect: o = 1 0 0 0 0 2 1 3
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] % b[id.x];
}

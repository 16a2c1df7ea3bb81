// conformance: uint multiplication keeps the low 32 bits
// buffer: a uint32 = 4294967295 4294967295 0 5 0 1073741824 3 4294967294
// buffer: b uint32 = 1 4294967295 1 7 1 4 0 2
// buffer: o uint32[8]
// expect: o = 4294967295 1 0 35 0 0 0 4294967292
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

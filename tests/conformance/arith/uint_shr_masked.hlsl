// conformance: uint >> is logical and takes the shift amount modulo 32
// buffer: a uint32 = 1 1 3 4294967295 4294967295 85 1 6
// buffer: b uint32 = 0 31 32 33 1 67 95 1
// buffer: o uint32[8]
// expect: o = 1 0 3 2147483647 2147483647 10 0 3
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] >> b[id.x];
}

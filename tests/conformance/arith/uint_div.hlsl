// conformance: uint division truncates toward zero
// buffer: a uint32 = 7 8 4294967295 0 4294967295 2147483648 100 3
// buffer: b uint32 = 2 2 3 5 4294967295 7 9 4
// buffer: o uint32[8]
// expect: o = 3 4 1431655765 0 1 306783378 11 0
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}

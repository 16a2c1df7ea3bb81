// conformance: AddUint64 on uint2 (low, high): the low word's carry goes into the high word
// buffer: a uint32 = 4294967295 0 2147483648 1 4294967295 4294967295 5 6
// buffer: b uint32 = 1 0 2147483648 2 1 0 4294967291 4294967289
// buffer: o uint32[8]
// expect: o = 0 1 0 4 0 0 0 0
StructuredBuffer<uint2> a;
StructuredBuffer<uint2> b;
RWStructuredBuffer<uint2> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = AddUint64(a[id.x], b[id.x]);
}

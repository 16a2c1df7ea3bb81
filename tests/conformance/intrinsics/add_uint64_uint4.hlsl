// conformance: AddUint64 on uint4: two independent 64-bit sums, (x, y) and (z, w)
// buffer: a uint32 = 4294967295 7 0 4294967295 305419896 2596069104 4294967294 1
// buffer: b uint32 = 1 8 4294967295 1 3989547400 1698898192 3 4294967294
// buffer: o uint32[8]
// expect: o = 0 16 4294967295 0 0 1 1 0
StructuredBuffer<uint4> a;
StructuredBuffer<uint4> b;
RWStructuredBuffer<uint4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = AddUint64(a[id.x], b[id.x]);
}

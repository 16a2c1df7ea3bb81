// conformance: int &, |, ^ and ~ on every bit
// buffer: a int32 = 2147483647 -2147483648 90 0 12345 1 2147483640 3
// buffer: b int32 = -2147483648 2147483647 15 0 255 3 7 5
// buffer: o int32[8]
// expect: o = 2147483646 2147483647 69 -1 12230 -2 2147483639 0
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] & b[id.x]) ^ ((a[id.x] | b[id.x]) + ~b[id.x]);
}

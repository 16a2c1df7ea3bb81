// conformance: int multiplication keeps the low 32 bits
// buffer: a int32 = 2147483647 2147483647 -2147483648 5 0 1073741824 3 2147483646
// buffer: b int32 = 1 2147483647 -1 -7 -1 4 0 2
// buffer: o int32[8]
// expect: o = 2147483647 1 -2147483648 -35 0 0 0 -4
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] * b[id.x];
}

// conformance: INT_MIN - 1 and INT_MAX + 1 wrap
// buffer: a int32 = -2147483648 2147483647 -2147483648 2147483647
// buffer: b int32 = -1 1 -2147483648 2147483647
// buffer: o int32[4]
// expect: o = 2147483647 -2147483648 0 -2
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] + b[id.x];
}

// conformance: int division truncates toward zero
// buffer: a int32 = 7 -7 7 -7 2147483647 -2147483648 0 100
// buffer: b int32 = 2 2 -2 -2 3 7 5 -9
// buffer: o int32[8]
// expect: o = 3 -3 -3 3 715827882 -306783378 0 -11
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}

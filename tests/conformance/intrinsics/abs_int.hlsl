// conformance: abs on int
// buffer: a int32 = -5 5 0 -2147483647
// buffer: o int32[4]
// expect: o = 5 5 0 2147483647
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = abs(x);
}

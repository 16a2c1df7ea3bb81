// conformance: dot of int3 stays integer
// buffer: a int32 = 1 0 -7
// buffer: o int32[3]
// expect: o = -9 -15 -57
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = dot(int3(x, 2, -3), int3(4, x, 5));
}

// conformance: int op uint converts the int to uint
// buffer: a int32 = -1 3 6 -2147483648
// buffer: b int32 = 0 0 0 0
// buffer: o int32[4]
// expect: o = 1 0 1 1
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (uint(a[id.x]) > 5u) ? 1 : 0;
}

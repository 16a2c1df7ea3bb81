// conformance: mad on ints multiplies and adds with wrap-around
// buffer: a int32 = 1 -2 1073741824 0
// buffer: o int32[4]
// expect: o = 2 -7 -1073741825 -1
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = mad(x, 3, -1);
}

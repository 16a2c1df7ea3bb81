// conformance: clamp on ints
// buffer: a int32 = -100 0 11 -3 10
// buffer: o int32[5]
// expect: o = -3 0 10 -3 10
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = clamp(x, -3, 10);
}

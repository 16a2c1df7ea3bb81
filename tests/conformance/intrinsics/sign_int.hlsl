// conformance: sign(int) returns -1, 0 or 1
// buffer: a int32 = -7 0 9 -2147483648
// buffer: o int32[4]
// expect: o = -1 0 1 -1
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = sign(x);
}

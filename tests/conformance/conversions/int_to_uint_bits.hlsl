// conformance: int to uint keeps the bit pattern
// buffer: a int32 = -1 -2147483648 5 0
// buffer: o uint32[4]
// expect: o = 4294967295 2147483648 5 0
StructuredBuffer<int> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = (uint)x;
}

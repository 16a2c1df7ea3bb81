// conformance: int << takes the shift amount modulo 32, as DXC masks it
// buffer: a int32 = 1 1 3 2147483647 -2147483648 85 1 6
// buffer: b int32 = 0 31 32 33 1 67 95 1
// buffer: o int32[8]
// expect: o = 1 -2147483648 3 -2 0 680 -2147483648 12
StructuredBuffer<int> a;
StructuredBuffer<int> b;
RWStructuredBuffer<int> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] << b[id.x];
}

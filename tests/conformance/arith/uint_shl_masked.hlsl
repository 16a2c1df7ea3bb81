// conformance: uint << takes the shift amount modulo 32, as DXC masks it
// buffer: a uint32 = 1 1 3 4294967295 4294967295 85 1 6
// buffer: b uint32 = 0 31 32 33 1 67 95 1
// buffer: o uint32[8]
// expect: o = 1 2147483648 3 4294967294 4294967294 680 2147483648 12
StructuredBuffer<uint> a;
StructuredBuffer<uint> b;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] << b[id.x];
}

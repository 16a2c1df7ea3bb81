// conformance: int16_t << takes the shift amount modulo 16, as DXC masks it
// buffer: a int16 = 1 1 3 32767 -32768 85 1 6
// buffer: b int16 = 0 15 16 17 1 35 47 1
// buffer: o int16[8]
// expect: o = 1 -32768 3 -2 0 680 -32768 12
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<int16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] << b[id.x];
}

// conformance: int16_t >> is arithmetic and takes the shift amount modulo 16
// buffer: a int16 = 1 1 3 32767 -32768 85 1 6
// buffer: b int16 = 0 15 16 17 1 35 47 1
// buffer: o int16[8]
// expect: o = 1 0 3 16383 -16384 10 0 3
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<int16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] >> b[id.x];
}

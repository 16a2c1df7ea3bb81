// conformance: int16_t subtraction wraps modulo 2^16
// buffer: a int16 = 32767 32767 -32768 5 0 16384 3 32766
// buffer: b int16 = 1 32767 -1 -7 -1 4 0 2
// buffer: o int16[8]
// expect: o = 32766 0 -32767 12 1 16380 3 32764
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<int16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] - b[id.x];
}

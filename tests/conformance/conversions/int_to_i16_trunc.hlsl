// conformance: int to int16_t keeps the low 16 bits as two's complement
// buffer: a int32 = 98304 -32769 32767 -1
// buffer: o int32[4]
// expect: o = -32768 32767 32767 -1
StructuredBuffer<int> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int x = a[id.x];
    o[id.x] = (int)(int16_t)x;
}

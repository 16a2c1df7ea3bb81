// conformance: int16_t multiplication overflows at 16 bits
// buffer: a int16 = 300 -300 256 7
// buffer: b int16 = 300 300 128 -3
// buffer: o int32[4]
// expect: o = 24464 -24464 -32768 -21
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (int)(a[id.x] * b[id.x]);
}

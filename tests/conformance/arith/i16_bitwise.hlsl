// conformance: int16_t &, |, ^ and ~ on every bit
// buffer: a int16 = 32767 -32768 90 0 12345 1 32760 3
// buffer: b int16 = -32768 32767 15 0 255 3 7 5
// buffer: o int16[8]
// expect: o = 32766 32767 69 -1 12230 -2 32759 0
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<int16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = (a[id.x] & b[id.x]) ^ ((a[id.x] | b[id.x]) + ~b[id.x]);
}

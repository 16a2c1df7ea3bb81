// conformance: int16_t division truncates toward zero
// buffer: a int16 = 7 -7 7 -7 32767 -32768 0 100
// buffer: b int16 = 2 2 -2 -2 3 7 5 -9
// buffer: o int16[8]
// expect: o = 3 -3 -3 3 10922 -4681 0 -11
StructuredBuffer<int16_t> a;
StructuredBuffer<int16_t> b;
RWStructuredBuffer<int16_t> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] / b[id.x];
}

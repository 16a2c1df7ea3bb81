// conformance: int16_t to int sign-extends, uint16_t to uint zero-extends
// buffer: a int16 = -1 -32768 5 0
// buffer: o int32[4]
// expect: o = 65534 0 10 0
StructuredBuffer<int16_t> a;
RWStructuredBuffer<int> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int16_t x = a[id.x];
    o[id.x] = (int)x + (int)(uint)(uint16_t)x;
}

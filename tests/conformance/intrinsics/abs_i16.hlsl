// conformance: abs on int16_t, min / max on uint16_t
// buffer: a int16 = -5 5 20 -32767
// buffer: o int16[4]
// expect: o = 15 10 30 -32759
StructuredBuffer<int16_t> a;
RWStructuredBuffer<int16_t> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    int16_t x = a[id.x];
    o[id.x] = abs(x) + (int16_t)min((uint16_t)x, (uint16_t)10);
}

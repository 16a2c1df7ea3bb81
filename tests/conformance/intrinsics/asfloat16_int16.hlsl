// conformance: asfloat16 on int16_t: bits become half
// buffer: a int16 = 0 -1 -32768 32767 15360 -1024
// buffer: o float16[6]
// expect: o = 0.0 nan -0.0 nan 1.0 -inf
StructuredBuffer<int16_t> a;
RWStructuredBuffer<half> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asfloat16(a[id.x]);
}

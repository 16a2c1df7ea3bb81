// conformance: asfloat16 on uint16_t4: bits become half (denormal, -0, inf kept)
// buffer: a uint16 = 15360 49152 31744 1 32768 31743 13653 64512
// buffer: o float16[8]
// expect: o = 1.0 -2.0 inf 5.960464477539063e-08 -0.0 65504.0 0.333251953125 -inf
StructuredBuffer<uint16_t4> a;
RWStructuredBuffer<half4> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asfloat16(a[id.x]);
}

// conformance: asuint16 on half: the IEEE binary16 bit pattern
// buffer: a float16 = 1.0 -2.0 0.5 -0.0 inf 65504.0
// buffer: o uint16[6]
// expect: o = 15360 49152 14336 32768 31744 31743
StructuredBuffer<half> a;
RWStructuredBuffer<uint16_t> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asuint16(a[id.x]);
}

// conformance: asint16 on half2: each component's bits as int16_t
// buffer: a float16 = 1.0 -2.0 0.5 -0.0 inf 65504.0
// buffer: o int16[6]
// expect: o = 15360 -16384 14336 -32768 31744 31743
StructuredBuffer<half2> a;
RWStructuredBuffer<int16_t2> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = asint16(a[id.x]);
}

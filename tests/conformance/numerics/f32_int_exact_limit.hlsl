// conformance: 2^24 + 1 is not representable in fp32: it rounds to even
// buffer: a float32 = 1.6777216e+07 1.6777216e+07 8.388607e+06
// buffer: o float32[3]
// expect: o = 1.6777216e+07 1.6777216e+07 8.388608e+06
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x + 1.0f;
}

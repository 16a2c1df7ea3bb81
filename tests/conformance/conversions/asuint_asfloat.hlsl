// conformance: asuint / asfloat reinterpret the bits
// buffer: a float32 = 1 -0.0 2 nan
// buffer: o uint32[4]
// expect: o = 0 3212836864 2139095040 1077936128
StructuredBuffer<float> a;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = asuint(x) ^ asuint(asfloat(0x3f800000u));
}

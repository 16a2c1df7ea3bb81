// conformance: modf splits into integer and fractional parts with the sign of x
// buffer: a float32 = 2.5 -2.5 3 -0.75
// buffer: o float32[4]
// expect: o = 2005 -2005 3000 -7.5
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = 0; float ip; float fp = modf(x, ip); o[id.x] = fp * 10.0f + ip * 1000.0f;
}

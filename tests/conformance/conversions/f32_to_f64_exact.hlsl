// conformance: float to double is exact
// buffer: a float32 = 0.1 3.4e+38 -1e-38 1.5
// buffer: o float64[4]
// expect: o = 0.10000000149011612 3.3999999521443642e+38 -9.999999350456404e-39 1.5
StructuredBuffer<float> a;
RWStructuredBuffer<double> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = (double)x;
}

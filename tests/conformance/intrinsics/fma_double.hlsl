// conformance: fma on double rounds once
// buffer: a float64 = 1.0000000009313226 3 0.5
// buffer: o float64[3]
// expect: o = 1.8626451500983188e-09 8 -0.75
StructuredBuffer<double> a;
RWStructuredBuffer<double> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    double x = a[id.x];
    o[id.x] = fma(x, x, -1.0);
}

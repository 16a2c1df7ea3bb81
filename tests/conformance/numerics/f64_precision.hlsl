// conformance: double keeps 53 bits: 1 + 2^-52 is not 1
// buffer: a float64 = 1 2 1e+16
// buffer: o float64[3]
// expect: o = 2.220446049250313e-16 1 1e+16
StructuredBuffer<double> a;
RWStructuredBuffer<double> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    double x = a[id.x];
    o[id.x] = x + 2.220446049250313e-16 - 1.0;
}

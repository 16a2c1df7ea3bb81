// conformance: fp64 denormals are kept through arithmetic (D3D requires it)
// buffer: a float64 = 5e-324 -1e-310 2.2e-308
// buffer: o float64[3]
// expect: o = 1e-323 -2e-310 4.4000000000000004e-308
StructuredBuffer<double> a;
RWStructuredBuffer<double> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    double x = a[id.x];
    o[id.x] = x * 2.0;
}

// conformance: double to float rounds to nearest even and overflows to inf
// buffer: a float64 = 0.1 1e+39 -1e+39 1.0000000596046448 1.0000001788139343 1e-50
// buffer: o float32[6]
// expect: o = 0.1 inf -inf 1 1.0000002 0
StructuredBuffer<double> a;
RWStructuredBuffer<float> o;

[numthreads(6, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    double x = a[id.x];
    o[id.x] = (float)x;
}

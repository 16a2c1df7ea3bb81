// conformance: float addition rounds to nearest even (IEEE fp32)
// buffer: a float32 = 0.1 1e+30 -1e+30 3 1.6777216e+07 1 -0.0 2.5
// buffer: b float32 = 0.2 1e+30 1e+30 -3 1 1e-08 -0.0 0.5
// buffer: o float32[8]
// expect: o = 0.3 2e+30 0 0 1.6777216e+07 1 -0.0 3
StructuredBuffer<float> a;
StructuredBuffer<float> b;
RWStructuredBuffer<float> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = a[id.x] + b[id.x];
}

// conformance: in a kernel with doubles, fp32 denormals still flush and fp64 ones are still kept (D3D)
// D3D11.3 3.1.3.3: fp32 denormals flush in arithmetic; fp64 denormals are preserved.
// buffer: a float32 = 1e-45 -5.877472e-39 1e-20 3
// buffer: d float64 = 5e-324 -1e-310 2.2e-308 3
// buffer: o float32[4]
// buffer: e float64[4]
// buffer: c uint32[4]
// expect: o = 0 -0.0 0 3
// expect: e = 5e-324 -1e-310 2.2e-308 3
// expect: c = 1 1 0 0
StructuredBuffer<float> a;
StructuredBuffer<double> d;
RWStructuredBuffer<float> o;
RWStructuredBuffer<double> e;
RWStructuredBuffer<uint> c;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = id.x == 2 ? x * x : x * 1.0;
    e[id.x] = d[id.x] * 1.0;
    c[id.x] = x == 0.0 ? 1u : 0u;
}

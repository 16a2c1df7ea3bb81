// conformance: moving an fp32 denormal without arithmetic keeps its bits (D3D)
// buffer: a float32 = 1e-45 -1.1754942e-38 5.877472e-39 -1e-45
// buffer: o float32[4]
// expect: o = 1e-45 -1.1754942e-38 5.877472e-39 -1e-45
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x;
}

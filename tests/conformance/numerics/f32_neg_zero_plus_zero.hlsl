// conformance: -0 + 0 is +0 (IEEE, D3D float rules), so x + 0.0f is not x
// buffer: a float32 = -0.0 0 -1.5 nan
// buffer: o float32[4]
// expect: o = 0 0 -1.5 nan
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x + 0.0f;
}

// conformance: x * 1.0 is x and x + 0.0 is x for normal values (D3D float rules)
// buffer: a float32 = 0.1 -3e+38 1.1754944e-38 7
// buffer: o float32[4]
// expect: o = 0.1 -3e+38 1.1754944e-38 7
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = x * 1.0f + 0.0f;
}

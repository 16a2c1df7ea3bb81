// conformance: saturate on float4 clamps each component
// buffer: a float32 = 0.5 2 -1
// buffer: o float32[3]
// expect: o = 1013 1051 1010
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = dot(saturate(float4(x, -x, x * 0.25f, 2.0f)), float4(1, 10, 100, 1000));
}

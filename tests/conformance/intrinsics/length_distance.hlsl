// conformance: length and distance of exact Pythagorean vectors
// buffer: a float32 = 1 2 0
// buffer: o float32[3]
// expect: o = 7 12 2
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = length(float2(3.0f * x, 4.0f * x)) + distance(float3(x, 0, 0), float3(x + 2.0f, 0, 0));
}

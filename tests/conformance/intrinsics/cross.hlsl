// conformance: cross product of float3
// buffer: a float32 = 0 1 2
// buffer: o float32[3]
// expect: o = 100 91 84
StructuredBuffer<float> a;
RWStructuredBuffer<float> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    o[id.x] = dot(cross(float3(1, x, 0), float3(0, 1, x)), float3(1, 10, 100));
}

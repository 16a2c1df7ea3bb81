// conformance: normalize divides a vector by its length
// buffer: a float32 = 0 1 -2 12
// buffer: ref float32 = 1.4 1.5689291 0.9284767 1.4615384
// buffer: o uint32[4]
// expect: o = 1 1 1 1
StructuredBuffer<float> a;
StructuredBuffer<float> ref;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    float r = ref[id.x];
    float v = dot(normalize(float3(x, 3.0f, 4.0f)), float3(1, 1, 1));
    o[id.x] = abs(v - r) <= 1e-06f + 2e-06f * abs(r) ? 1u : 0u;
}

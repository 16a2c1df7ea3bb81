// conformance: cos within 1e-6 absolute on [-pi, pi]
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 1 0.87758255 0.5403023 0.5403023 -0.41614684 -0.8011436 -0.9899925 0.9921977
// buffer: o uint32[8]
// expect: o = 1 1 1 1 1 1 1 1
StructuredBuffer<float> a;
StructuredBuffer<float> ref;
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    float r = ref[id.x];
    float v = cos(x);
    o[id.x] = abs(v - r) <= 1e-06f + 0.0f * abs(r) ? 1u : 0u;
}

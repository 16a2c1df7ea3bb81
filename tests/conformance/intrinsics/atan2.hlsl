// conformance: atan2(y, x) picks the quadrant from both signs
// buffer: a float32 = 1 -1 0.5 2 -3
// buffer: ref float32 = 2.2142975 -2.2142975 2.55359 1.929567 -1.815775
// buffer: o uint32[5]
// expect: o = 1 1 1 1 1
StructuredBuffer<float> a;
StructuredBuffer<float> ref;
RWStructuredBuffer<uint> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float x = a[id.x];
    float r = ref[id.x];
    float v = atan2(x, -0.75f);
    o[id.x] = abs(v - r) <= 1e-06f + 2e-06f * abs(r) ? 1u : 0u;
}

// conformance: degrees and radians scale by 180/pi and pi/180
// buffer: a float32 = 0 0.5 1 -1 2 -2.5 3 0.125
// buffer: ref float32 = 0 29.520554 59.041107 -59.041107 118.082214 -147.60277 177.12332 7.3801384
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
    float v = degrees(x) + radians(x * 100.0f);
    o[id.x] = abs(v - r) <= 1e-06f + 2e-06f * abs(r) ? 1u : 0u;
}

// conformance: refract on float2: straight through at eta 1, total internal reflection, bending
// buffer: i float32 = 0.0 -1.0 0.8 -0.6 0.6 -0.8
// buffer: n float32 = 0.0 1.0 0.0 1.0 0.0 1.0
// buffer: eta float32 = 1.0 1.5 0.75
// buffer: o float32[6]
// expect: o = 0.0 -1.0 0.0 0.0 0.45000002 -0.89302856
StructuredBuffer<float2> i;
StructuredBuffer<float2> n;
StructuredBuffer<float> eta;
RWStructuredBuffer<float2> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = refract(i[id.x], n[id.x], eta[id.x]);
}

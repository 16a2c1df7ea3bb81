// conformance: refract(i, n, eta); 0 where 1 - eta^2 (1 - dot(i, n)^2) < 0 (total internal reflection)
// buffer: i float32 = 0.0 -1.0 0.0 1.0 0.0 0.0 1.0 0.0 0.0 0.6 -0.8 0.0 0.8 -0.6 0.0
// buffer: n float32 = 0.0 1.0 0.0 0.0 1.0 0.0 0.0 1.0 0.0 0.0 1.0 0.0 0.0 1.0 0.0
// buffer: eta float32 = 0.5 0.5 2.0 1.5 1.5
// buffer: o float32[15]
// expect: o = 0.0 -1.0 0.0 0.5 -0.8660254 0.0 0.0 0.0 0.0 0.90000004 -0.43589002 0.0 0.0 0.0 0.0
StructuredBuffer<float3> i;
StructuredBuffer<float3> n;
StructuredBuffer<float> eta;
RWStructuredBuffer<float3> o;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[id.x] = refract(i[id.x], n[id.x], eta[id.x]);
}

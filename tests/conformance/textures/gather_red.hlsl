// conformance: GatherRed returns the red channel of the 2x2 footprint in (-,+), (+,+), (+,-), (-,-) order
// texture: t float32 4x4x4 = 0 0.25 0.5 0.75 1 1.25 1.5 1.75 2 2.25 2.5 2.75 3 3.25 3.5 3.75 4 4.25 4.5 4.75 5 5.25 5.5 5.75 6 6.25 6.5 6.75 7 7.25 7.5 7.75 8 8.25 8.5 8.75 9 9.25 9.5 9.75 10 10.25 10.5 10.75 11 11.25 11.5 11.75 12 12.25 12.5 12.75 13 13.25 13.5 13.75 14 14.25 14.5 14.75 15 15.25 15.5 15.75
// sampler: s point clamp
// buffer: of float32[4]
// expect: of = 9 10 6 5
Texture2D<float4> t;
SamplerState s;
RWStructuredBuffer<float4> of;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    of[0] = t.GatherRed(s, float2(0.5f, 0.5f));
}

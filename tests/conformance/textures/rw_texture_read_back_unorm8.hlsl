// conformance: a texel stored to a UNORM8 RWTexture2D and loaded back in the same dispatch reads as
// the format keeps it (the store converts: clamped to [0, 1], times 255, rounded), not as stored.
// ou = round(read * 255) * 10 + (read == stored): 0.21 * 255 = 53.55 keeps 54, 0.42 * 255 = 107.1
// keeps 107, 2.0 clamps to 255, -1.0 to 0; only 0 reads back as it was stored.
// texture: t uint8 5x1 = 9 9 9 9 9
// buffer: ou uint32[5]
// expect: ou = 1 540 1070 2550 0
RWTexture2D<float> t;
RWStructuredBuffer<uint> ou;

[numthreads(5, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    float stored = id.x < 3 ? 0.21f * id.x : (id.x == 3 ? 2.0f : -1.0f);
    t[id.xy] = stored;
    float read = t[id.xy];
    ou[id.x] = (uint)round(read * 255.0f) * 10 + (read == stored ? 1 : 0);
}

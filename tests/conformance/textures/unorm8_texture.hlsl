// conformance: a UNORM8 texture reads as value / 255
// 51 / 255 = 0.2 exactly in decimal; the fp32 result times 255 is computed the same way here.
// texture: t uint8 3x1x1 = 0 255 51
// buffer: of float32[3]
// expect: of = 0 255 51
Texture2D<float> t;
RWStructuredBuffer<float> of;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    of[id.x] = t.Load(int3(id.x, 0, 0)) * 255.0f;
}

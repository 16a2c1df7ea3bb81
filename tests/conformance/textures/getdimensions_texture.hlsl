// conformance: Texture2D.GetDimensions gives width and height
// texture: t float32 4x2x1 = 0 0 0 0 0 0 0 0
// buffer: o uint32[2]
// expect: o = 4 2
Texture2D<float> t;
RWStructuredBuffer<uint> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint w, h;
    t.GetDimensions(w, h);
    o[0] = w;
    o[1] = h;
}

// conformance: .mips[level][pos] exists on read-only textures only
// error: has no '.mips'
RWTexture2D<float> img;
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    o[0] = img.mips[0][uint2(0, 0)];
}

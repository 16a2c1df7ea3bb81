// conformance: tex.mips[level][pos] reads mip level at integer pos, the same texel as tex.Load(int3(pos, level))
// texture: tex float32 3x2 = 1 2 3 4 5 6
// buffer: o float32[4]
// expect: o = 6 4 2 6
Texture2D<float> tex;
RWStructuredBuffer<float> o;

[numthreads(1, 1, 1)]
void main(uint3 id : SV_DispatchThreadID)
{
    uint level = id.x;   // 0
    o[0] = tex.mips[level][uint2(2, 1)];
    o[1] = tex.mips[0][int2(0, 1)];
    o[2] = tex.Load(int3(1, 0, 0));
    o[3] = tex.mips[level + 0][uint2(2, 1)] * tex.mips[0][uint2(0, 0)];
}

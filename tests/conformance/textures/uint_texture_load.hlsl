// conformance: Texture2D<uint> loads integers unchanged
// texture: t uint32 3x2x1 = 1 2 3 4294967295 7 2147483648
// buffer: o uint32[3]
// expect: o = 4294967295 7 2147483648
Texture2D<uint> t;
RWStructuredBuffer<uint> o;

[numthreads(3, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = t.Load(int3(id.x, 1, 0));
}

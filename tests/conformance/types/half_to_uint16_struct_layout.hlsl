// conformance: a struct of 16-bit fields is tightly packed in a structured buffer
// buffer: src uint16 = 1 2 15360 3 4 16384
// buffer: o uint32[2]
// expect: o = 131073 262147
struct Small { uint16_t a; uint16_t b; half h; };
StructuredBuffer<Small> src;
RWStructuredBuffer<uint> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    Small s = src[id.x];
    o[id.x] = (uint)s.a + (uint)s.b * 0x10000u + (uint)(s.h * (half)2) * 0;
}

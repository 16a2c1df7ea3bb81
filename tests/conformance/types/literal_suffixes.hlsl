// conformance: literal suffixes: u, l, h, f, and hex/octal forms
// buffer: a uint32 = 0 1
// buffer: o uint32[2]
// expect: o = 33 34
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;

[numthreads(2, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = 0x10u + 010 + (uint)1.5f + (uint)(2.5h * 2.0h) + (uint)3l + a[id.x];
}

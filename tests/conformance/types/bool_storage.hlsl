// conformance: bool in a buffer is 4 bytes: any non-zero word reads as true, true stores 1
// buffer: flags uint32 = 0 1 2 2147483648
// buffer: outFlags uint32[4]
// buffer: o uint32[4]
// expect: outFlags = 1 0 0 0
// expect: o = 9 7 7 7
StructuredBuffer<bool> flags;
RWStructuredBuffer<bool> outFlags;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    bool b = flags[id.x];
    outFlags[id.x] = !b;
    o[id.x] = b ? 7u : 9u;
}

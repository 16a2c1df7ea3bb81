// conformance: ?: evaluates only the chosen arm (HLSL 2021): the other arm's buffer store does not happen
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[24]
// expect: o = 0 1 0 1 1 0 1 0 2 0 2 0 0 2 0 2 2 1 2 1 1 2 1 2
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
uint bump(uint slot, uint v)
{
    o[slot] = v;
    return v;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint x = a[id.x];
    uint r = (x & 1) ? bump(id.x, 1) : bump(id.x + 8, 2);
    o[16 + id.x] = r;
}

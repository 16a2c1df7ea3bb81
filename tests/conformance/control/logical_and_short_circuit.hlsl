// conformance: && skips its right operand when the left is false; || when the left is true
// buffer: a uint32 = 0 1 2 3 5 8 13 100
// buffer: o uint32[24]
// expect: o = 0 0 0 0 1 1 1 1 2 2 2 2 0 0 0 0 2 2 2 2 3 3 3 3
StructuredBuffer<uint> a;
RWStructuredBuffer<uint> o;
bool mark(uint slot, uint v)
{
    o[slot] = v;
    return true;
}

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    uint x = a[id.x];
    bool p = (x > 3) && mark(id.x, 1);
    bool q = (x > 3) || mark(8 + id.x, 2);
    o[16 + id.x] = (p ? 1u : 0u) + (q ? 2u : 0u);
}

// conformance: groupshared array of structs with vector members
// buffer: o uint32[16]
// expect: o = 3101 6102 9103 12104 15105 18106 21107 24108 27109 30110 33111 36112 39113 42114 45115 100
RWStructuredBuffer<uint> o;
struct Cell { float2 pos; uint tag; };
groupshared Cell cells[16];

[numthreads(16, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    cells[gi].pos = float2(gi, gi * 2);
    cells[gi].tag = gi + 100;
    GroupMemoryBarrierWithGroupSync();
    Cell c = cells[(gi + 1) % 16];
    o[gi] = uint(c.pos.x + c.pos.y) * 1000 + c.tag;
}

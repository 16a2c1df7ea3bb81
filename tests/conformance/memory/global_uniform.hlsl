// conformance: a global non-static variable is a uniform constant ($Globals)
// constant: base uint32 = 100
// constant: step uint32 = 3
// buffer: o uint32[4]
// expect: o = 100 103 106 109
uint base;
uint step;
RWStructuredBuffer<uint> o;

[numthreads(4, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = base + id.x * step;
}

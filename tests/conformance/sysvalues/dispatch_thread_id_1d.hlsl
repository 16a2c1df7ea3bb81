// conformance: SV_DispatchThreadID.x alone indexes a 1-D dispatch (the other system values declared but unused)
// buffer: o uint32[8]
// expect: o = 0 1 4 9 16 25 36 49
RWStructuredBuffer<uint> o;

[numthreads(8, 1, 1)]
void main(uint3 id : SV_DispatchThreadID, uint3 gid : SV_GroupID, uint3 tid : SV_GroupThreadID, uint gi : SV_GroupIndex)
{
    o[id.x] = id.x * id.x;
}
